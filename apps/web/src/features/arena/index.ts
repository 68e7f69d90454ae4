export { ArenaList, ArenaQueueButton } from './ArenaList';
