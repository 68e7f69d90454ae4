/** Open/closed state of the QR dialog. Tiny on purpose: the sidebar (first paint) imports it. */
import { create } from 'zustand';

export const useQrDialog = create<{ open: boolean }>(() => ({ open: false }));
export const openQrDialog = () => useQrDialog.setState({ open: true });
export const closeQrDialog = () => useQrDialog.setState({ open: false });
