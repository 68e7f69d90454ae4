// Through the other feature's entry: allowed.
import { twoStore } from '../two';

export const oneCount = () => twoStore.count;
