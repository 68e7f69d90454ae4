/**
 * Background delivery for notifications (WhatsApp, Discord, Web Push): a message is tried up to
 * NOTIFY_ATTEMPTS times with a doubling pause of NOTIFY_RETRY_MS; failures are logged. Nothing here
 * is awaited by the queue: listeners start a delivery and return at once.
 */
import { type Locale, PLAYERS_PER_MATCH } from '@openpug/shared';
import type { AppContext } from '../../context';
import { countNotifyFailure, failureReason } from '../metrics';

/** The notify module's per-app state (`ctx.state.notify`): the deliveries under way. */
export interface NotifyModuleState {
  pending: Set<Promise<unknown>>;
}

interface Log {
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
}
const logOf = (ctx: AppContext): Log => ctx.log;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
  });

/** The longest Retry-After a delivery waits for before its next attempt. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Sends with bounded retries; resolves true on success, false when every attempt failed or the
 * refusal was permanent.
 */
export async function withRetries(
  ctx: AppContext,
  label: string,
  send: () => Promise<void>,
  log: Pick<Log, 'warn'> = logOf(ctx),
): Promise<boolean> {
  const attempts = ctx.config.NOTIFY_ATTEMPTS;
  let reason = 'error';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await send();
      return true;
    } catch (err) {
      reason = failureReason(err);
      // A sender may mark a refusal `permanent` (no retry helps) or give `retryAfterMs` (a 429's
      // Retry-After, capped); otherwise the pause doubles. One log line per attempt.
      const hint = (err ?? {}) as { permanent?: unknown; retryAfterMs?: unknown };
      const permanent = hint.permanent === true;
      const last = permanent || attempt === attempts;
      const pause =
        typeof hint.retryAfterMs === 'number'
          ? Math.min(Math.max(0, hint.retryAfterMs), MAX_RETRY_AFTER_MS)
          : ctx.config.NOTIFY_RETRY_MS * 2 ** (attempt - 1);
      log.warn(
        { err: String(err), attempt, attempts, label, permanent, ...(last ? {} : { retryInMs: pause }) },
        last ? 'notification delivery failed' : 'notification delivery failed, will retry',
      );
      if (last) break;
      await sleep(pause);
    }
  }
  countNotifyFailure(ctx, label, reason);
  return false;
}

/** Starts a delivery without waiting for it. */
export function deliverInBackground(ctx: AppContext, label: string, send: () => Promise<void>): void {
  const set = ctx.state.notify.pending;
  const p = withRetries(ctx, label, send).catch(() => false);
  set.add(p);
  void p.finally(() => set.delete(p));
}

/**
 * Runs a listener body in the background (errors logged), so the bus returns at once; it waits
 * while the queue writes (lib/priority.ts): in a crowd, a notification a moment later costs
 * less than every player's accept phase a moment later.
 */
export function inBackground(ctx: AppContext, label: string, fn: () => Promise<void>): void {
  const set = ctx.state.notify.pending;
  const p = ctx.priority.deferrable(fn).catch((err) => {
    countNotifyFailure(ctx, label, 'fanout');
    logOf(ctx).error({ err, label }, 'notification fan-out failed');
  });
  set.add(p);
  void p.finally(() => set.delete(p));
}

/** Waits until every background delivery started so far (and those they start) is done (tests, shutdown). */
export async function notificationsSettled(ctx: AppContext): Promise<void> {
  for (;;) {
    // Bus handlers after the first start in later microtasks; let them all register first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const set = ctx.state.notify.pending;
    if (set.size === 0) return;
    await Promise.allSettled([...set]);
  }
}

export const localeOfRow = (locale: string | null | undefined): Locale => (locale === 'de' ? 'de' : 'en');

const TEXTS = {
  en: {
    gameFoundTitle: 'Game found!',
    gameFound: (s: number) => `openpug: game found! Accept within ${s} seconds.`,
    matched: 'openpug: everyone accepted, your match is ready. Join the match room now.',
    whatsAppCode: (code: string) => `Your openpug code: ${code}`,
    queueAlertTitle: (count: number) => `The queue is at ${count}/${PLAYERS_PER_MATCH}`,
    queueAlertBody: 'Tap to join the queue.',
    queueAlert: (count: number, link: string) =>
      `openpug: the queue is at ${count}/${PLAYERS_PER_MATCH}. Join now: ${link}`,
  },
  de: {
    gameFoundTitle: 'Spiel gefunden!',
    gameFound: (s: number) => `openpug: Spiel gefunden! Nimm innerhalb von ${s} Sekunden an.`,
    matched: 'openpug: Alle haben angenommen, dein Match ist bereit. Betritt jetzt den Match-Raum.',
    whatsAppCode: (code: string) => `Dein openpug-Code: ${code}`,
    queueAlertTitle: (count: number) => `Die Warteschlange steht bei ${count}/${PLAYERS_PER_MATCH}`,
    queueAlertBody: 'Tippe, um der Warteschlange beizutreten.',
    queueAlert: (count: number, link: string) =>
      `openpug: Die Warteschlange steht bei ${count}/${PLAYERS_PER_MATCH}. Jetzt beitreten: ${link}`,
  },
} as const;

export const notifyTexts = (locale: Locale) => TEXTS[locale];
