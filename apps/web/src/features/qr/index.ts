export { QrDialog } from './QrDialog';
export { closeQrDialog, openQrDialog, useQrDialog } from './state';
