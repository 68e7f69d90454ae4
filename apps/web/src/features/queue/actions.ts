/** Queue calls and the server events that drive the widget (docs/contract.md §4 "Queue and match"). */
import type { QueueAck, QueueMessage, QueueState } from '@openpug/shared';
import { openVoiceLinkDialog } from '../accounts';
import { api } from '../api';
import { setErrorMessage } from '../app-state';
import { updateSessionUser, useSession } from '../session';
import { emitWithAck, getSocket, SocketRefusal } from '../socket';
import { dispatchQueue, placeIsCurrent, useQueue } from './state';

/** Reads of GET /api/queue before a restore gives way to the live events (see below). */
const RESTORE_ATTEMPTS = 3;

/**
 * Restores the widget after a reload or a sync from another device (and feeds the Match Lobby
 * button). An accept phase can start while the read travels: its PRIVATE_QUEUE_READY then arrives
 * before the older answer, which must not clear it. Such an answer is read again; after
 * RESTORE_ATTEMPTS the live events, all newer than any answer, stand.
 */
export async function restoreQueue(): Promise<void> {
  for (let attempt = 0; attempt < RESTORE_ATTEMPTS; attempt++) {
    const since = useQueue.getState().seen;
    const state = await api.get<QueueState>('/queue', { silent: true });
    dispatchQueue({ type: 'restore', state, now: Date.now(), since });
    if (!placeIsCurrent(useQueue.getState(), since)) continue;
    if (state.matchId) markInMatch(state.matchId);
    return;
  }
}

/** Feeds the sidebar's Match Lobby button (user.status.match) without losing the other status fields. */
export function markInMatch(matchId: string): void {
  const status = (useSession.getState().user?.status ?? {}) as Record<string, unknown> & {
    match?: Record<string, unknown>;
  };
  updateSessionUser({ status: { ...status, match: { ...status.match, active: true, matchId } } });
}

export async function sendQueue(event: QueueMessage['event']): Promise<void> {
  dispatchQueue({ type: 'busy', busy: true });
  try {
    const ack = await emitWithAck<QueueAck>(getSocket(), 'queue-message', { event }, { silent: true });
    dispatchQueue({ type: 'ack', inQueue: ack.inQueue, count: ack.count, now: Date.now() });
  } catch (error) {
    dispatchQueue({ type: 'busy', busy: false });
    const key = error instanceof SocketRefusal ? error.key : 'ERROR';
    if (key === 'VOICE_NOT_LINKED') openVoiceLinkDialog();
    else if (key === 'STEAM_NOT_LINKED') dispatchQueue({ type: 'steamRequired', open: true });
    else if (key === 'QUEUE_COOLDOWN')
      void restoreQueue().catch(() => undefined); // brings the cooldown's reason and end time
    else if (key === 'NAME_REQUIRED')
      updateSessionUser({ name: '' }); // the layout's name dialog opens
    else setErrorMessage(key);
  }
}
