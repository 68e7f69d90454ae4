/**
 * One-tap join (docs/contract.md §4 "Queue alerts"): a queue alert opens `/home?queue=join` (desktop,
 * Discord) or `/m?queue=join` (phone push, WhatsApp). Once the socket is signed in, the page drops
 * the parameter and joins the queue through the normal path, so the voice link, cooldowns and bans
 * still decide; a player already queued stays as they are.
 */
import { QUEUE_JOIN_PARAM, QUEUE_JOIN_VALUE } from '@openpug/shared';
import { useEffect } from 'react';
import { restoreQueue, sendQueue, useQueue } from '../queue';
import { useSocketState } from '../socket';

/** Whether the address asks to join; removes the parameter so a reload does not join again. */
export function takeJoinRequest(): boolean {
  const url = new URL(window.location.href);
  if (url.searchParams.get(QUEUE_JOIN_PARAM) !== QUEUE_JOIN_VALUE) return false;
  url.searchParams.delete(QUEUE_JOIN_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return true;
}

/** Joins the queue unless already in it (the state is read fresh first). */
export async function joinFromAlert(): Promise<void> {
  await restoreQueue().catch(() => undefined);
  if (!useQueue.getState().inQueue) await sendQueue('join');
}

export function useQueueJoinLink(): void {
  const authenticated = useSocketState((s) => s.authenticated);
  useEffect(() => {
    if (authenticated && takeJoinRequest()) void joinFromAlert();
  }, [authenticated]);
}
