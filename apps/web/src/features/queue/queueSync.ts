/**
 * Keeps the queue state in step across a user's devices: joining or leaving on the phone (or in
 * another tab) sends PRIVATE_QUEUE_SYNC, and this tab re-reads GET /api/queue.
 */

import { useSocketEvent } from '../socket';
import { restoreQueue } from './actions';

export function useQueueSync(): void {
  useSocketEvent('PRIVATE_QUEUE_SYNC', () => void restoreQueue().catch(() => undefined));
}
