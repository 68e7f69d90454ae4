/**
 * Web Push (RFC 8030 + VAPID RFC 8292 + aes128gcm RFC 8291) with the `web-push` package for the
 * signing and encryption; the request itself goes out through lib/outbound.ts, so it reaches only
 * public https hosts (a local fake in tests is allowed by OUTBOUND_ALLOW). VAPID keys come from
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY or are generated once and stored in the database, shared by
 * every instance.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GameFoundPush, Locale } from '@openpug/shared';
import { and, eq, inArray } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { batchedRows } from '../../lib/batch';
import { conflict, unprocessable } from '../../lib/errors';
import { BlockedAddressError, checkUserUrl, type OutboundAnswer, postToUserUrl } from '../../lib/outbound';
import { findUsersByIds } from '../accounts/service';
import { deliverInBackground, inBackground, localeOfRow, notifyTexts } from '../notify';
import { pushSubscriptions, vapidKeyPair } from './schema';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The deployment's VAPID keys: from the environment, else the one stored pair. The first start
 * stores `$DATA_DIR/vapid.json` when an older version left one there (its subscriptions keep
 * working), else a new pair; instances starting together agree on whichever row was stored first.
 */
export async function loadVapidKeys(config: Config, db: Db): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const stored = async () => (await db.select().from(vapidKeyPair).where(eq(vapidKeyPair.id, 1)))[0];
  const found = await stored();
  if (found) return { publicKey: found.publicKey, privateKey: found.privateKey };
  const keys = legacyVapidKeys(config.dataDir) ?? webpush.generateVAPIDKeys();
  await db
    .insert(vapidKeyPair)
    .values({ id: 1, ...keys })
    .onConflictDoNothing();
  const row = (await stored()) as VapidKeys;
  return { publicKey: row.publicKey, privateKey: row.privateKey };
}

/** The keys an older version kept in `$DATA_DIR/vapid.json`, if any. */
function legacyVapidKeys(dataDir: string): VapidKeys | null {
  try {
    const old = JSON.parse(readFileSync(path.join(dataDir, 'vapid.json'), 'utf8')) as Partial<VapidKeys>;
    return old.publicKey && old.privateKey ? { publicKey: old.publicKey, privateKey: old.privateKey } : null;
  } catch {
    return null;
  }
}

/**
 * The VAPID subject push services see: VAPID_SUBJECT, else PUBLIC_URL when it is https (RFC 8292
 * allows an https URL), else a mailto: at PUBLIC_URL's host. Apple's push service refuses a
 * subject whose host does not resolve (the old default was mailto:admin@openpug.local).
 */
export function vapidSubject(config: Config): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  const url = new URL(config.PUBLIC_URL);
  return url.protocol === 'https:' ? url.origin : `mailto:admin@${url.hostname}`;
}

/** A push endpoint that no longer exists (the browser unsubscribed). */
class GoneError extends Error {}

export async function sendPush(
  config: Config,
  keys: VapidKeys,
  sub: { endpoint: string; p256dh: string; auth: string },
  payload: object,
  ttlSeconds = 60,
): Promise<void> {
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject: vapidSubject(config), publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: ttlSeconds,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    },
  );
  let answer: OutboundAnswer;
  try {
    answer = await postToUserUrl(
      details.endpoint,
      {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : undefined,
        timeoutMs: 10_000,
      },
      { allow: config.OUTBOUND_ALLOW },
    );
  } catch (err) {
    // An endpoint that now resolves to a private address is as good as gone.
    if (err instanceof BlockedAddressError) throw new GoneError(err.message);
    throw err;
  }
  const { status } = answer;
  // RFC 8030 §7.3 / the push services' docs: 404 and 410 mean the subscription is gone.
  if (status === 404 || status === 410) throw new GoneError(`push endpoint gone (${status})`);
  if (status >= 200 && status < 300) return;
  // RFC 8030 §8.4: a push service that is overloaded answers 429 and may say when to come back.
  if (status === 429 || status === 503)
    throw Object.assign(new Error(`push service answered ${status}`), {
      retryAfterMs: retryAfterMs(answer.retryAfter),
    });
  // Other 4xx (a bad VAPID signature, a payload too large, a malformed request): no retry helps.
  throw Object.assign(new Error(`push service answered ${status}`), {
    permanent: status >= 400 && status < 500,
  });
}

/** Retry-After in seconds or as an HTTP date → milliseconds (undefined: use the normal back-off). */
function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The mobile module's per-app state (`ctx.state.mobile`). */
export interface MobileModuleState {
  /** Loaded once per app, before the module's routes serve (mobile/routes.ts). */
  vapidKeys?: VapidKeys;
  /** subscriptionsSoon's loader, made on first use. */
  subscriptionLoader?: (userId: string) => Promise<PushSubscriptionRow[]>;
}
/** Loads the keys once per app, before the module's routes serve (mobile/routes.ts). */
export async function initVapidKeys(ctx: AppContext): Promise<void> {
  ctx.state.mobile.vapidKeys = await loadVapidKeys(ctx.config, ctx.db);
}
export function vapidKeys(ctx: AppContext): VapidKeys {
  const k = ctx.state.mobile.vapidKeys;
  if (!k) throw new Error('VAPID keys not loaded yet');
  return k;
}

type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * A user's push subscriptions; the reads of one turn of the event loop share one query
 * (lib/batch.ts): a queue batch that starts twenty accept phases pushes to the ten players of each.
 */
function subscriptionsSoon(ctx: AppContext, userId: string): Promise<PushSubscriptionRow[]> {
  ctx.state.mobile.subscriptionLoader ??= batchedRows(
    (userIds: string[]) =>
      ctx.db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds)),
    (row) => row.userId,
  );
  return ctx.state.mobile.subscriptionLoader(userId);
}

/**
 * One push to every subscription of these users, its payload in each user's language (background,
 * bounded retries); a subscription the push service says is gone is deleted.
 */
export function pushToUsers(
  ctx: AppContext,
  userIds: readonly string[],
  payloadOf: (locale: Locale) => object,
  ttlSeconds: number,
): void {
  inBackground(ctx, 'push fan-out', async () => {
    // The subscriptions first (most players have none), then only the users who have one.
    const allSubs = (await Promise.all(userIds.map((id) => subscriptionsSoon(ctx, id)))).flat();
    if (allSubs.length === 0) return;
    const rows = await findUsersByIds(ctx.db, [...new Set(allSubs.map((s) => s.userId))]);
    for (const row of rows) {
      const subs = allSubs.filter((s) => s.userId === row.id);
      const payload = payloadOf(localeOfRow(row.locale));
      for (const sub of subs) {
        deliverInBackground(ctx, `push ${row.id}`, async () => {
          try {
            await sendPush(ctx.config, vapidKeys(ctx), sub, payload, ttlSeconds);
          } catch (err) {
            if (!(err instanceof GoneError)) throw err;
            await ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, sub.endpoint));
          }
        });
      }
    }
  });
}

/** 'game found' to every push subscription of these users. */
export function pushGameFound(ctx: AppContext, userIds: readonly string[], deadline: number): void {
  const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
  pushToUsers(
    ctx,
    userIds,
    (locale): GameFoundPush => {
      const t = notifyTexts(locale);
      return { type: 'game-found', title: t.gameFoundTitle, body: t.gameFound(seconds), url: '/m', deadline };
    },
    seconds,
  );
}

/** Whether the user has at least one push subscription (the queue alert's phone channel). */
export async function hasPushSubscription(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .limit(1);
  return rows.length > 0;
}

/**
 * Stores the browser's push subscription for the player. A subscription belongs to the player who
 * made it: the same endpoint from another account is refused with PUSH_ENDPOINT_TAKEN (the
 * browser then makes a new subscription for its new player); an endpoint on no public https host
 * with PUSH_ENDPOINT_NOT_PUBLIC (lib/outbound.ts).
 */
export async function storeSubscription(
  ctx: AppContext,
  userId: string,
  endpoint: string,
  keys: { p256dh: string; auth: string },
): Promise<void> {
  try {
    checkUserUrl(endpoint, { allow: ctx.config.OUTBOUND_ALLOW });
  } catch (err) {
    if (err instanceof BlockedAddressError) throw unprocessable('PUSH_ENDPOINT_NOT_PUBLIC');
    throw err;
  }
  const values = {
    endpoint,
    userId,
    p256dh: keys.p256dh,
    auth: keys.auth,
    createdAt: new Date(ctx.clock.now()),
  };
  const stored = await ctx.db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: values,
      setWhere: eq(pushSubscriptions.userId, userId),
    })
    .returning({ endpoint: pushSubscriptions.endpoint });
  if (stored.length === 0) throw conflict('PUSH_ENDPOINT_TAKEN');
}

/** Removes one of the player's subscriptions (someone else's endpoint is left alone). */
export async function removeSubscription(ctx: AppContext, userId: string, endpoint: string): Promise<void> {
  await ctx.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
}
