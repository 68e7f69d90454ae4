/**
 * Web Push (RFC 8030 + VAPID RFC 8292 + aes128gcm RFC 8291) with the `web-push` package for the
 * signing and encryption; the request itself goes out through lib/outbound.ts, so it reaches only
 * public https hosts (a local fake in tests is allowed by OUTBOUND_ALLOW). VAPID keys come from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY
 * or are generated once and kept in DATA_DIR/vapid.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GameFoundPush } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { BlockedAddressError, postToUserUrl } from '../../lib/outbound';
import { findUsersByIds } from '../accounts/service';
import { deliverInBackground, inBackground, localeOfRow, notifyTexts } from '../notify/deliver';
import { pushSubscriptions } from './schema';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function loadVapidKeys(config: Config): VapidKeys {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const file = path.join(config.dataDir, 'vapid.json');
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
    if (stored.publicKey && stored.privateKey) return stored;
  } catch {
    // Not there yet.
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
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
      vapidDetails: { subject: config.VAPID_SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: ttlSeconds,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    },
  );
  let status: number;
  try {
    status = await postToUserUrl(
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
  if (status === 404 || status === 410) throw new GoneError(`push endpoint gone (${status})`);
  if (status < 200 || status >= 300) throw new Error(`push service answered ${status}`);
}

const keysOf = new WeakMap<AppContext, VapidKeys>();
export function vapidKeys(ctx: AppContext): VapidKeys {
  let k = keysOf.get(ctx);
  if (!k) {
    k = loadVapidKeys(ctx.config);
    keysOf.set(ctx, k);
  }
  return k;
}

/** 'game found' to every push subscription of these users (background, bounded retries). */
export function pushGameFound(ctx: AppContext, userIds: readonly string[], deadline: number): void {
  inBackground(ctx, 'push fan-out', async () => {
    const rows = await findUsersByIds(ctx.db, userIds);
    const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
    for (const row of rows) {
      const subs = await ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, row.id));
      const t = notifyTexts(localeOfRow(row.locale));
      const payload: GameFoundPush = {
        type: 'game-found',
        title: t.gameFoundTitle,
        body: t.gameFound(seconds),
        url: '/m',
        deadline,
      };
      for (const sub of subs) {
        deliverInBackground(ctx, `push ${row.id}`, async () => {
          try {
            await sendPush(ctx.config, vapidKeys(ctx), sub, payload, seconds);
          } catch (err) {
            if (!(err instanceof GoneError)) throw err;
            await ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, sub.endpoint));
          }
        });
      }
    }
  });
}
