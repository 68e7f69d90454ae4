/**
 * After a crash, presence is rebuilt, not trusted: an instance that dies leaves players "online"
 * and queued with nobody signing out. The next start gives every queued player the grace of a
 * closed tab: whoever reconnects by then keeps their place and is online; the rest leave the
 * queue, and their status says offline and not in queue, within grace + 2 s.
 * A graceful stop (a deploy) signs every tab out; a restart slower than the grace must not spend
 * those graces before the tabs could come back.
 */
import { offlineStatus } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  openTestDatabase,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { userStatus } from '../presence/schema';
import { queueEntries } from './schema';

// Long enough for a reconnect on a busy two-core CI machine, short enough to keep the test quick.
const GRACE_MS = 3_000;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('presence and queue after a crash', () => {
  it('drops the queued players who do not come back within the grace; keeps the one who does', async () => {
    const database = await openTestDatabase();
    // What a killed instance leaves behind: five queued players stored online and in queue.
    const seed = await createTestApp({ database });
    const players: TestUser[] = [];
    for (let i = 0; i < 5; i++)
      players.push(await createTestUser(seed.app, { teamSpeakId: `ts-crash-${i}` }));
    const now = Date.now();
    for (const [i, p] of players.entries()) {
      await database.db.insert(queueEntries).values({ userId: p.id, joinedAt: now - 1000 + i });
      await database.db.insert(userStatus).values({
        userId: p.id,
        status: { ...offlineStatus(), online: true, inQueue: true },
        updatedAt: new Date(),
      });
    }
    await seed.app.close();

    const started = Date.now();
    t = await createTestApp({
      database,
      env: { QUEUE_DISCONNECT_GRACE_MS: String(GRACE_MS), JOBS_POLL_MS: '100' },
    });
    await t.listen();
    const back = await connectSocket(t.url, players[0].token); // reloads within the grace

    const statusOf = async (id: string) =>
      (await database.db.select().from(userStatus).where(eq(userStatus.userId, id)))[0]?.status;
    const queued = async () => (await database.db.select().from(queueEntries)).map((e) => e.userId);
    await expect.poll(queued, { timeout: GRACE_MS + 2_000 }).toEqual([players[0].id]);
    // The status is written after the queue's commit (a bus event, presence/service.ts), a few
    // milliseconds after the entries are gone: read right away it could still say "in queue".
    for (const p of players.slice(1)) {
      await expect
        .poll(() => statusOf(p.id), { timeout: 1_000 })
        .toMatchObject({ online: false, inQueue: false });
    }
    expect(await statusOf(players[0].id)).toMatchObject({ online: true, inQueue: true });
    expect(Date.now() - started).toBeLessThan(GRACE_MS + 2_000 + 5_000); // app start included
    back.disconnect();
  });

  it('keeps the place of a tab that reconnects after a graceful restart slower than the grace', async () => {
    const database = await openTestDatabase();
    const grace = 2_000;
    const env = { QUEUE_DISCONNECT_GRACE_MS: String(grace), JOBS_POLL_MS: '100' };
    const old = await createTestApp({ database, env });
    await old.listen();
    const player = await createTestUser(old.app, { teamSpeakId: 'ts-deploy' });
    const tab = await connectSocket(old.url, player.token);
    await database.db.insert(queueEntries).values({ userId: player.id, joinedAt: Date.now() });
    // The deploy's SIGTERM: the server signs the tab out, so its grace starts now.
    await old.app.close();
    tab.disconnect();
    // The next build takes longer than the grace to come up.
    await new Promise((resolve) => setTimeout(resolve, grace + 500));
    t = await createTestApp({ database, env });
    await t.listen();
    // A browser's Socket.IO client retries with a back-off of about a second.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const back = await connectSocket(t.url, player.token);
    await new Promise((resolve) => setTimeout(resolve, grace + 500)); // past the start-up grace
    const queued = (await database.db.select().from(queueEntries)).map((e) => e.userId);
    expect(queued).toEqual([player.id]);
    back.disconnect();
  });
});
