/**
 * The layout's account dialogs (docs/contract.md §2 global layout): the name dialog while the logged-in user
 * has no name, and the voice-server link dialog when something opens it. Both load on first use.
 */
import { Suspense } from 'react';
import { useOnceTrue } from '../../app/layout/useOnceTrue';
import { lazyFeature } from '../../app/lazyFeature';
import { useSession } from '../session';
import { useVoiceLinkDialog } from './voiceLinkState';

const NameDialog = lazyFeature(() => import('./NameDialog').then((m) => m.NameDialog));
const VoiceLinkDialog = lazyFeature(() => import('./VoiceLinkDialog').then((m) => m.VoiceLinkDialog));

/** A logged-in user record without a name (a user record not loaded yet does not count). */
export function needsName(user: { name?: unknown } | null): boolean {
  return user !== null && (user.name === null || user.name === '' || user.name === undefined);
}

export function AccountDialogs() {
  const user = useSession((s) => s.user);
  const voiceOpen = useVoiceLinkDialog((s) => s.open);
  // Mounted from its first opening on, so it can animate closed.
  const voiceUsed = useOnceTrue(voiceOpen);
  return (
    <Suspense fallback={null}>
      {needsName(user) && <NameDialog />}
      {voiceUsed && <VoiceLinkDialog />}
    </Suspense>
  );
}
