/**
 * The queue's live events, the same for the queue widget and the phone app (/m): the public count,
 * the accept phase (ready, ready updates, kick, timeout), a cooldown starting or lifted, the match (found, started) and the sync
 * across the user's devices. The callbacks run after the queue state and the session know the
 * match; what each surface does then (navigate, show a link) is its own. Also the queue alert's
 * desktop notification and its `?queue=join` link (features/queue-alerts).
 */
import { useQueueAlertEvents, useQueueJoinLink } from '../queue-alerts';
import { useSocketEvent } from '../socket';
import { markInMatch } from './actions';
import { useQueueSync } from './queueSync';
import { dispatchQueue } from './state';

export function useQueueSocketEvents({
  onMatchFound,
  onMatchStart,
}: {
  onMatchFound?(matchId: string): void;
  onMatchStart?(matchId: string): void;
}): void {
  useQueueSync();
  // "Notify me at N/10": the desktop notification and the one-tap join link it opens.
  useQueueAlertEvents();
  useQueueJoinLink();
  useSocketEvent('PUBLIC_QUEUE_UPDATE', ({ count }) => dispatchQueue({ type: 'count', count }));
  useSocketEvent('PRIVATE_QUEUE_READY', ({ players, deadline }) =>
    dispatchQueue({ type: 'ready', players, deadline }),
  );
  useSocketEvent('PRIVATE_QUEUE_READY_UPDATE', ({ players }) =>
    dispatchQueue({ type: 'readyUpdate', players }),
  );
  useSocketEvent('PRIVATE_QUEUE_KICK', () => dispatchQueue({ type: 'kick' }));
  useSocketEvent('PRIVATE_QUEUE_TIMEOUT', ({ unreadyProfiles }) =>
    dispatchQueue({ type: 'timeout', unreadyProfiles }),
  );
  useSocketEvent('PRIVATE_QUEUE_COOLDOWN', (cooldown) => dispatchQueue({ type: 'cooldown', cooldown }));
  useSocketEvent('PRIVATE_QUEUE_MATCH', ({ matchId }) => {
    dispatchQueue({ type: 'match' });
    markInMatch(matchId);
    onMatchFound?.(matchId);
  });
  useSocketEvent('PRIVATE_MATCH_START', ({ matchId }) => {
    dispatchQueue({ type: 'match' });
    markInMatch(matchId);
    onMatchStart?.(matchId);
  });
}
