export { AdminScreen as default } from './AdminScreen';
