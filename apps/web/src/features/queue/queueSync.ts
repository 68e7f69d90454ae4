/**
 * Keeps the queue state in step across a user's devices. Joining or leaving on the phone (or in
 * another tab) changes the player's live status, which every socket of theirs hears
 * (`privateUserUpdate {status}`); a tab whose widget shows otherwise re-reads GET /api/queue. A
 * tab waiting for its own queue answer reads nothing: the answer brings the state. (A separate
 * PRIVATE_QUEUE_SYNC event used to repeat the status's `inQueue` to every socket and made every
 * tab re-read, the one that joined too: issue 20 target 4.)
 */

import { useSocketEvent } from '../socket';
import { restoreQueue } from './actions';
import { useQueue } from './state';

/** Re-reads the queue when a status update says otherwise than the widget; true when it did. */
export function syncQueueFrom(patch: { status?: { inQueue?: boolean } }): boolean {
  const inQueue = patch.status?.inQueue;
  const shown = useQueue.getState();
  if (typeof inQueue !== 'boolean' || shown.busy || inQueue === shown.inQueue) return false;
  void restoreQueue().catch(() => undefined);
  return true;
}

export function useQueueSync(): void {
  useSocketEvent('privateUserUpdate', (patch) => void syncQueueFrom(patch));
}
