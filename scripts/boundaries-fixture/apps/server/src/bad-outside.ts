// Code outside the modules reaches into a module's internal file.
import { twiceOf } from './modules/beta/helpers';

export const outside = () => twiceOf(2);
