/**
 * Open/close state of the voice-server link dialog. Light on purpose: the queue feature (Play
 * without a linked identity) and the settings screen open it; the dialog itself loads lazily.
 */
import { create } from 'zustand';

export const useVoiceLinkDialog = create<{ open: boolean }>(() => ({ open: false }));

export function openVoiceLinkDialog(): void {
  useVoiceLinkDialog.setState({ open: true });
}

export function closeVoiceLinkDialog(): void {
  useVoiceLinkDialog.setState({ open: false });
}
