export { AdminDropsScreen as default } from './AdminDropsScreen';
