export { AdminAuditScreen as default } from './AdminAuditScreen';
