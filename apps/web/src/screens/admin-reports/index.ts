export { AdminReportsScreen as default } from './AdminReportsScreen';
