export { QrDialog } from './QrDialog';
