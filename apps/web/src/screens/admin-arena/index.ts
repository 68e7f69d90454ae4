export { AdminArenaScreen as default } from './AdminArenaScreen';
