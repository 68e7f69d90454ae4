/**
 * "Notify me at N/10" end to end on the real app: one notification per rise (not per count
 * change), re-arming below the threshold and when the queue pops, nobody told who is queued or in
 * a match, quiet hours in the player's zone, only the chosen channels, no duplicate after a
 * restart, and the setting's validation and privacy.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  openTestDatabase,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { pushSubscriptions, queueAlerts } from '../../db/schema';
import { listOutbox } from '../mail/mailer';
import { startFakePushService } from '../mobile/fake-push';
import { notificationsSettled } from '../notify/deliver';
import { COUNT_BROADCAST_MS, joinQueue, leaveQueue, readyQueue } from '../queue/service';
import { startFakeCloudApi } from '../whatsapp/fake-cloud-api';
import { checkJob, QUEUE_ALERT_CHECK_MS } from './service';

let n = 0;
const player = (t: TestApp, fields: Parameters<typeof createTestUser>[1] = {}) =>
  createTestUser(t.app, { teamSpeakId: `ts-alert-${n++}`, ...fields });
const players = async (t: TestApp, count: number) => {
  const ps: TestUser[] = [];
  for (let i = 0; i < count; i++) ps.push(await player(t));
  return ps;
};

const open: TestApp[] = [];
afterEach(async () => {
  // The queue's coalesced count broadcast reads the database shortly after the last change.
  await new Promise((r) => setTimeout(r, COUNT_BROADCAST_MS * 4));
  for (const t of open.splice(0)) await t.close();
});

async function app(env: Record<string, string> = {}, start?: number) {
  const clock = manualClock(start);
  const t = await createTestApp({ clock, env: { NOTIFY_RETRY_MS: '1', ...env } });
  open.push(t);
  await t.app.ready();
  return { t, clock };
}

/** Waits for the count change to book its check, then runs it and its deliveries. */
async function check(t: TestApp, clock: ReturnType<typeof manualClock>) {
  await expect.poll(() => t.app.ctx.jobs.hasPending(t.app.ctx.db, checkJob)).toBe(true);
  clock.advance(QUEUE_ALERT_CHECK_MS);
  await t.app.ctx.jobs.runDue();
  await notificationsSettled(t.app.ctx);
}

const put = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/profile/queue-alert', headers: bearer(user.token), payload });
const alert = (threshold: number | null, channels: string[], more: object = {}) => ({
  threshold,
  channels,
  quietHours: null,
  timeZone: 'Europe/Berlin',
  ...more,
});
const dms = async (t: TestApp, user: TestUser) =>
  (await listOutbox(t.app.ctx.db, user.id)).filter((m) => m.channel === 'discord');
const stateOf = async (t: TestApp, user: TestUser) =>
  (await t.app.ctx.db.select().from(queueAlerts).where(eq(queueAlerts.userId, user.id)))[0]?.state;

describe('the arming rule', () => {
  it('notifies once per rise, not per count change, and re-arms below the threshold', async () => {
    const { t, clock } = await app();
    const b = await player(t, { discordId: '700000000000000001' });
    expect((await put(t, b, alert(3, ['discord']))).statusCode).toBe(200);
    const [p1, p2, p3, p4] = await players(t, 4);

    for (const p of [p1, p2]) await joinQueue(t.app.ctx, p.id);
    await check(t, clock);
    expect(await dms(t, b)).toEqual([]);

    await joinQueue(t.app.ctx, p3.id);
    await check(t, clock);
    expect((await dms(t, b)).map((m) => m.text)).toEqual([
      'openpug: the queue is at 3/10. Join now: http://localhost:0/home?queue=join',
    ]);

    // 4, back to 3: still the same rise.
    await joinQueue(t.app.ctx, p4.id);
    await check(t, clock);
    await leaveQueue(t.app.ctx, p4.id);
    await check(t, clock);
    expect(await dms(t, b)).toHaveLength(1);
    expect(await stateOf(t, b)).toBe('fired');

    // Below the threshold re-arms; the next rise notifies again.
    await leaveQueue(t.app.ctx, p3.id);
    await check(t, clock);
    expect(await stateOf(t, b)).toBe('armed');
    expect(await dms(t, b)).toHaveLength(1);
    await joinQueue(t.app.ctx, p3.id);
    await check(t, clock);
    expect(await dms(t, b)).toHaveLength(2);
  });

  it('re-arms when the queue pops into a match', async () => {
    const { t, clock } = await app();
    const b = await player(t, { discordId: '700000000000000002' });
    await put(t, b, alert(3, ['discord']));
    const ps = await players(t, 13);
    for (const p of ps) await joinQueue(t.app.ctx, p.id);
    await check(t, clock);
    expect(await dms(t, b)).toHaveLength(1);
    // The first ten accept and leave into a match; three remain: a new rise for b.
    for (const p of ps.slice(0, 10)) await readyQueue(t.app.ctx, p.id);
    // The pop re-arms after its commit (queue.matched). The players' status patches book this
    // window's check first, and here the test fires it: wait for the re-arm, as the window's end
    // would in production (a pop after the window's check books the next window).
    await expect.poll(() => stateOf(t, b)).toBe('armed');
    await check(t, clock);
    expect(await dms(t, b)).toHaveLength(2);
  });

  it('does not tell a player who is queued or in a match; that rise is spent', async () => {
    const { t, clock } = await app();
    const queued = await player(t, { discordId: '700000000000000003' });
    const playing = await player(t, { discordId: '700000000000000004' });
    await put(t, queued, alert(2, ['discord']));
    await put(t, playing, alert(2, ['discord']));
    await seedMatch(t.app, 'active', [playing]);
    const [p1, p2] = await players(t, 2);

    await joinQueue(t.app.ctx, queued.id);
    await joinQueue(t.app.ctx, p1.id);
    await check(t, clock);
    expect(await dms(t, queued)).toEqual([]);
    expect(await dms(t, playing)).toEqual([]);
    expect(await stateOf(t, queued)).toBe('fired');

    // Leaving with the count still at 2 (p2 came) does not notify the one who just left.
    await joinQueue(t.app.ctx, p2.id);
    await leaveQueue(t.app.ctx, queued.id);
    await check(t, clock);
    expect(await dms(t, queued)).toEqual([]);
  });

  it('keeps quiet hours in the player’s time zone', async () => {
    // 22:30 UTC: 23:30 in Berlin (quiet 22–7), 17:30 in New York (quiet 22–7 too, but not yet).
    const { t, clock } = await app({}, Date.UTC(2026, 10, 21, 22, 30));
    const berlin = await player(t, { discordId: '700000000000000005' });
    const newYork = await player(t, { discordId: '700000000000000006' });
    await put(t, berlin, alert(2, ['discord'], { quietHours: { from: 22, to: 7 } }));
    await put(
      t,
      newYork,
      alert(2, ['discord'], { quietHours: { from: 22, to: 7 }, timeZone: 'America/New_York' }),
    );
    const [p1, p2] = await players(t, 2);
    await joinQueue(t.app.ctx, p1.id);
    await joinQueue(t.app.ctx, p2.id);
    await check(t, clock);
    expect(await dms(t, berlin)).toEqual([]);
    expect(await dms(t, newYork)).toHaveLength(1);

    // The next rise, at 08:00 in Berlin, is heard.
    await leaveQueue(t.app.ctx, p2.id);
    await check(t, clock);
    clock.set(Date.UTC(2026, 10, 22, 7, 0));
    await joinQueue(t.app.ctx, p2.id);
    await check(t, clock);
    expect(await dms(t, berlin)).toHaveLength(1);
  });

  it('does not notify again after a restart, and the next rise still notifies', async () => {
    const database = await openTestDatabase();
    const clock = manualClock();
    const first = await createTestApp({ clock, database });
    await first.app.ready();
    const b = await player(first, { discordId: '700000000000000007' });
    await put(first, b, alert(1, ['discord']));
    const [p1] = await players(first, 1);
    await joinQueue(first.app.ctx, p1.id);
    await check(first, clock);
    expect(await dms(first, b)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, COUNT_BROADCAST_MS * 4));
    await first.close();

    const second = await createTestApp({ clock, database });
    open.push(second);
    await second.app.ready();
    // Start-up books a check; the count is still 1, the alert is still fired.
    await check(second, clock);
    expect(await dms(second, b)).toHaveLength(1);
    await leaveQueue(second.app.ctx, p1.id);
    await check(second, clock);
    await joinQueue(second.app.ctx, p1.id);
    await check(second, clock);
    expect(await dms(second, b)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, COUNT_BROADCAST_MS * 4));
    await second.close();
    open.splice(open.indexOf(second), 1);
    await database.dispose();
  });
});

describe('channels', () => {
  it('delivers only on the chosen channels: desktop socket, push to /m, WhatsApp template with the link', async () => {
    const push = await startFakePushService();
    try {
      const { t, clock } = await app({
        OUTBOUND_ALLOW: new URL(push.url).host,
        PUBLIC_URL: 'https://pug.example',
      });
      const b = await player(t, {
        discordId: '700000000000000008',
        phone: '+491701234567',
        whatsAppEnabled: true,
        locale: 'de',
      });
      const browser = push.browser();
      await t.app.ctx.db.insert(pushSubscriptions).values({
        endpoint: browser.endpoint,
        userId: b.id,
        p256dh: browser.keys.p256dh,
        auth: browser.keys.auth,
        createdAt: new Date(),
      });
      const got = await t.app.inject({
        method: 'GET',
        url: '/api/profile/queue-alert',
        headers: bearer(b.token),
      });
      expect(got.json().available).toEqual({ desktop: true, push: true, whatsapp: true, discord: true });
      expect((await put(t, b, alert(1, ['whatsapp', 'push', 'desktop']))).json().channels).toEqual([
        'desktop',
        'push',
        'whatsapp',
      ]);

      const url = await t.listen();
      const socket = await connectSocket(url, b.token);
      const alerts: unknown[] = [];
      socket.on('PRIVATE_QUEUE_ALERT', (p) => alerts.push(p));
      const [p1] = await players(t, 1);
      await joinQueue(t.app.ctx, p1.id);
      await check(t, clock);
      await expect.poll(() => alerts).toEqual([{ count: 1, threshold: 1 }]);
      socket.close();

      expect(push.received).toHaveLength(1);
      expect(push.received[0].vapid.ok).toBe(true);
      expect(push.received[0].payload).toEqual({
        type: 'queue-alert',
        title: 'Die Warteschlange steht bei 1/10',
        body: 'Tippe, um der Warteschlange beizutreten.',
        url: '/m?queue=join',
        count: 1,
      });
      const outbox = await listOutbox(t.app.ctx.db, b.id);
      expect(outbox.map((m) => [m.channel, m.text])).toEqual([
        [
          'whatsapp',
          'openpug: Die Warteschlange steht bei 1/10. Jetzt beitreten: https://pug.example/m?queue=join',
        ],
      ]);
    } finally {
      await push.close();
    }
  });
  it('goes to WhatsApp as the approved queue_alert template: the count and the join link', async () => {
    let t: TestApp | undefined;
    const meta = await startFakeCloudApi({
      token: 'tok-q',
      phoneNumberId: '777',
      appSecret: 'app-secret-q',
      templates: { openpug_queue_alert: { languages: ['en_US', 'de'], bodyParams: 2 } },
      deliver: async (payload, headers) =>
        (await (t as TestApp).app.inject({ method: 'POST', url: '/api/whatsapp/webhook', payload, headers }))
          .statusCode,
    });
    try {
      const started = await app({
        WHATSAPP_TOKEN: 'tok-q',
        WHATSAPP_PHONE_NUMBER_ID: '777',
        WHATSAPP_API_URL: meta.url,
        WHATSAPP_APP_SECRET: 'app-secret-q',
        PUBLIC_URL: 'https://pug.example',
      });
      t = started.t;
      const b = await player(t, { phone: '+491709876543', whatsAppEnabled: true });
      expect((await put(t, b, alert(1, ['whatsapp']))).statusCode).toBe(200);
      const [p1] = await players(t, 1);
      await joinQueue(t.app.ctx, p1.id);
      await check(t, started.clock);
      expect(meta.requests.map((r) => [r.answered, r.body.template])).toEqual([
        [
          200,
          {
            name: 'openpug_queue_alert',
            language: { code: 'en_US' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: '1' },
                  { type: 'text', text: 'https://pug.example/m?queue=join' },
                ],
              },
            ],
          },
        ],
      ]);
    } finally {
      await meta.close();
    }
  });
});

describe('the setting', () => {
  it('refuses bad input with the field’s key and changes nothing', async () => {
    const { t } = await app();
    const b = await player(t);
    await put(t, b, alert(5, ['desktop']));
    const cases: [object, number, string][] = [
      [alert(10, []), 422, 'QUEUE_ALERT_THRESHOLD_INVALID'],
      [alert(0, []), 422, 'QUEUE_ALERT_THRESHOLD_INVALID'],
      [alert(2.5, []), 422, 'QUEUE_ALERT_THRESHOLD_INVALID'],
      [alert(3, ['pager']), 422, 'INVALID_INPUT'],
      [alert(3, [], { quietHours: { from: 5, to: 5 } }), 422, 'QUIET_HOURS_INVALID'],
      [alert(3, [], { quietHours: { from: 22, to: 24 } }), 422, 'QUIET_HOURS_INVALID'],
      [alert(3, [], { timeZone: 'Mars/Olympus_Mons' }), 422, 'TIME_ZONE_INVALID'],
      [alert(3, ['discord']), 409, 'QUEUE_ALERT_CHANNEL_NOT_LINKED'],
    ];
    for (const [payload, status, key] of cases) {
      const res = await put(t, b, payload);
      expect([res.statusCode, res.json()]).toEqual([status, { errors: { msg: key } }]);
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/profile/queue-alert',
      headers: bearer(b.token),
    });
    expect(res.json()).toMatchObject({ threshold: 5, channels: ['desktop'], timeZone: 'Europe/Berlin' });
  });

  it('belongs to its player: another reads and writes only their own; visitors get 401', async () => {
    const { t } = await app();
    const a = await player(t);
    const other = await player(t);
    await put(t, a, alert(7, ['desktop'], { quietHours: { from: 23, to: 8 } }));
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/profile/queue-alert',
      headers: bearer(other.token),
    });
    expect(read.json()).toMatchObject({ threshold: null, channels: [], quietHours: null });
    await put(t, other, alert(2, []));
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/profile/queue-alert',
      headers: bearer(a.token),
    });
    expect(mine.json()).toMatchObject({ threshold: 7, quietHours: { from: 23, to: 8 } });
    const publicView = await t.app.inject({
      method: 'GET',
      url: `/api/users/${a.id}`,
      headers: bearer(other.token),
    });
    expect(publicView.body).not.toMatch(/threshold|quietHours/);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile/queue-alert' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/profile/queue-alert', payload: alert(3, []) }))
        .statusCode,
    ).toBe(401);
  });
});
