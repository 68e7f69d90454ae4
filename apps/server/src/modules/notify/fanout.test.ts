/**
 * Notification fan-out for an accept phase with mixed settings (WhatsApp on/off/no number,
 * Discord linked, push subscribed), the accept-phase result over WhatsApp when the match is set,
 * and a failing WhatsApp provider that neither delays nor breaks the queue (bounded retries).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../test/helpers';
import { pushSubscriptions } from '../../db/schema';
import { listOutbox } from '../mail/mailer';
import { startFakePushService } from '../mobile/fake-push';
import { COUNT_BROADCAST_MS, joinQueue, queueState, readyQueue } from '../queue/service';
import { notificationsSettled } from './deliver';

type Fields = Parameters<typeof createTestUser>[1];
/**
 * After-commit work of other modules (the queue's coalesced count broadcast, the new match's
 * start-up) still reads the database briefly; let it finish before the database is dropped.
 */
const countBroadcastDone = () => new Promise((r) => setTimeout(r, COUNT_BROADCAST_MS * 10));
let n = 0;
async function tenPlayers(t: TestApp, fields: (i: number) => Fields = () => ({})): Promise<TestUser[]> {
  const ps: TestUser[] = [];
  for (let i = 0; i < 10; i++)
    ps.push(await createTestUser(t.app, { teamSpeakId: `ts-fan-${n++}`, ...fields(i) }));
  return ps;
}

describe('fan-out for an accept phase with mixed settings', () => {
  let t: TestApp;
  let push: Awaited<ReturnType<typeof startFakePushService>>;
  beforeAll(async () => {
    push = await startFakePushService();
    t = await createTestApp({ env: { NOTIFY_RETRY_MS: '1', OUTBOUND_ALLOW: new URL(push.url).host } });
  });
  afterAll(async () => {
    await countBroadcastDone();
    await t.close();
    await push.close();
  });

  it('game found goes only to who asked for it, in their language; the result follows the match', async () => {
    const ps = await tenPlayers(
      t,
      (i) =>
        [
          { phone: '+491701111111', whatsAppEnabled: true, locale: 'de' },
          { phone: '+491702222222', whatsAppEnabled: false },
          { phone: null, whatsAppEnabled: true },
          { discordId: '600000000000000001', locale: 'de' },
          { phone: '+14155550100', whatsAppEnabled: true, discordId: '600000000000000002' },
          {},
        ][Math.min(i, 5)] as Fields,
    );
    const browser = push.browser();
    await t.app.ctx.db.insert(pushSubscriptions).values({
      endpoint: browser.endpoint,
      userId: ps[5].id,
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      createdAt: new Date(),
    });

    for (const p of ps) await joinQueue(t.app.ctx, p.id);
    await notificationsSettled(t.app.ctx);
    const of = async (p: TestUser, channel: string) =>
      (await listOutbox(t.app.ctx.db, p.id)).filter((m) => m.channel === channel);

    const wa0 = await of(ps[0], 'whatsapp');
    expect(wa0.map((m) => [m.to, m.text])).toEqual([
      ['+491701111111', expect.stringMatching(/^openpug: Spiel gefunden!/)],
    ]);
    expect((await of(ps[4], 'whatsapp')).map((m) => m.text)).toEqual([
      expect.stringMatching(/^openpug: game found!/),
    ]);
    for (const i of [1, 2, 3, 5, 6, 7, 8, 9]) expect(await of(ps[i], 'whatsapp')).toEqual([]);

    expect((await of(ps[3], 'discord')).map((m) => [m.to, m.text])).toEqual([
      ['600000000000000001', expect.stringMatching(/Spiel gefunden/)],
    ]);
    expect((await of(ps[4], 'discord')).map((m) => m.to)).toEqual(['600000000000000002']);
    for (const i of [0, 1, 2, 5, 6, 7, 8, 9]) expect(await of(ps[i], 'discord')).toEqual([]);

    expect(push.received).toHaveLength(1);
    expect(push.received[0].vapid.ok).toBe(true);
    expect(push.received[0].payload).toMatchObject({ type: 'game-found', title: 'Game found!', url: '/m' });

    for (const p of ps) await readyQueue(t.app.ctx, p.id);
    await notificationsSettled(t.app.ctx);
    expect((await of(ps[0], 'whatsapp')).map((m) => m.text)[0]).toMatch(/dein Match ist bereit/);
    expect((await of(ps[4], 'whatsapp')).map((m) => m.text)[0]).toMatch(/your match is ready/);
    expect(await of(ps[1], 'whatsapp')).toEqual([]);
    // Push and Discord only announce the game; no second push.
    expect(push.received).toHaveLength(1);
    expect(await of(ps[3], 'discord')).toHaveLength(1);
  });
});

describe('a failing WhatsApp provider', () => {
  const pending: ServerResponse[] = [];
  let hold = true;
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    requests++;
    if (hold) pending.push(res);
    else res.writeHead(500).end('{"error":"down"}');
  });
  let t: TestApp;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    t = await createTestApp({
      env: {
        WHATSAPP_TOKEN: 'tok',
        WHATSAPP_PHONE_NUMBER_ID: '42',
        WHATSAPP_API_URL: `http://127.0.0.1:${port}`,
        NOTIFY_ATTEMPTS: '3',
        NOTIFY_RETRY_MS: '1',
      },
    });
  });
  afterAll(async () => {
    await countBroadcastDone();
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('does not hold up the accept phase or the match, and gives up after the bounded retries', async () => {
    const ps = await tenPlayers(t, (i) => ({
      phone: `+4917000000${String(i).padStart(2, '0')}`,
      whatsAppEnabled: true,
    }));
    for (const p of ps) await joinQueue(t.app.ctx, p.id);
    // While every WhatsApp request is still unanswered, the phase runs and the match is set.
    await expect.poll(() => pending.length).toBe(10);
    for (const p of ps) expect((await queueState(t.app.ctx, p.id)).phase?.players).toHaveLength(10);
    for (const p of ps) await readyQueue(t.app.ctx, p.id);
    const state = await queueState(t.app.ctx, ps[0].id);
    expect(state.inQueue).toBe(false);
    expect(state.matchId).toEqual(expect.any(String));

    hold = false;
    for (const res of pending.splice(0)) res.writeHead(500).end('{"error":"down"}');
    await notificationsSettled(t.app.ctx);
    // 10 'game found' + 10 results, each tried 3 times, then dropped.
    expect(requests).toBe(60);
    expect(await listOutbox(t.app.ctx.db, ps[0].id)).toEqual([]);
  });
});
