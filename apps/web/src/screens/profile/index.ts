export { ProfileScreen as default } from './ProfileScreen';
