// Reaches into another module's internal file instead of its entry (service.ts or index.ts).
import { twiceOf } from '../beta/helpers';

export const twice = () => twiceOf(1);
