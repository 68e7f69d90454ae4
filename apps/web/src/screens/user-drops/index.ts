export { UserDropsScreen as default } from './UserDropsScreen';
