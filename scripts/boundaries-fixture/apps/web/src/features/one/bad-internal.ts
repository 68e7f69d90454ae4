// Reaches into another feature's store file instead of its entry.
import { twoStore } from '../two/store';

export const oneTwice = () => 2 * twoStore.count;
