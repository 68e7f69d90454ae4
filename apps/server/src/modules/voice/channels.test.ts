/**
 * A TeamSpeak channel per team (channels.ts) against the fake ServerQuery server
 * (fake-serverquery.ts) and the embedded game simulator: channels are made under the parent when
 * the match goes live, linked players on the voice server are moved in, late joiners on the next
 * poll, the channels go at the result or a cancel, within the flood limit; a voice server that
 * hangs does not hold up the match, and what it left behind is swept once it answers again.
 */
import type { MatchState } from '@openpug/shared';
import { eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestUser, manualClock, startMatch, type TestUser } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { users } from '../accounts/schema';
import { cancelMatch } from '../matches/service';
import { armCleanup, CHANNEL_PREFIX } from './channels';
import { FAKE_DEFAULT_CHANNEL, type FakeChannel, type FakeClient, FakeServerQuery } from './fake-serverquery';
import { voiceChannels } from './schema';
import type { TeamSpeakVoiceServer } from './serverquery';

const ROUND_MS = 1_000;
const POLL_MS = 5_000;
const clock = manualClock();
let fake: FakeServerQuery;
let parent: FakeChannel;
let t: MatchTestApp;

beforeAll(async () => {
  fake = new FakeServerQuery();
  await fake.listen();
  parent = fake.addChannel('Matches');
  t = await createMatchTestApp({
    clock,
    env: {
      MATCH_CONNECT_TIMEOUT_MS: '0',
      SIM_ROUND_MS: String(ROUND_MS),
      TEAMSPEAK_HOST: '127.0.0.1',
      TEAMSPEAK_QUERY_PORT: String(fake.rawPort),
      TEAMSPEAK_PASSWORD: 'secret',
      TEAMSPEAK_KEEPALIVE_MS: '0',
      TEAMSPEAK_QUERY_TIMEOUT_MS: '5000',
      TEAMSPEAK_CHANNEL_PARENT: String(parent.cid),
      VOICE_CHANNEL_POLL_MS: String(POLL_MS),
    },
  });
  await t.app.ready();
  await voice().ready();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
afterEach(() => {
  fake.silent = false;
});

const voice = () => t.app.ctx.voice as TeamSpeakVoiceServer;
const advance = (ms: number) => t.advance(ms);
const matchRow = (id: string) => t.matchRow(id);
const matchChannels = (id: string) =>
  fake.channels.filter((c) => c.name.startsWith(`${CHANNEL_PREFIX}${id.slice(0, 8)}`));
const stateFor = async (id: string, user?: TestUser): Promise<MatchState> =>
  (
    await t.app.inject({ method: 'GET', url: `/api/match/${id}`, headers: user ? bearer(user.token) : {} })
  ).json();

/** Ten players with linked TeamSpeak identities `uid-<n>`. */
async function players(): Promise<TestUser[]> {
  return Promise.all(
    Array.from({ length: 10 }, () => createTestUser(t.app, { teamSpeakId: `uid-${Math.random()}` })),
  );
}
const uidOf = async (u: TestUser) =>
  (await t.app.ctx.db.select().from(users).where(eq(users.id, u.id)))[0].teamSpeakId as string;

/** Picks time out, the one-map pool needs no veto, the simulator goes live. */
async function goLive(ids: string[]) {
  for (let i = 0; i < 30; i++) {
    const rows = await Promise.all(ids.map(matchRow));
    if (rows.every((r) => r.liveAt !== null)) return;
    await advance(ROUND_MS);
  }
  throw new Error('matches did not go live');
}

async function teamsOf(matchId: string, roster: TestUser[]) {
  const s = await stateFor(matchId, roster[0]);
  const ids = (team: 'teamOne' | 'teamTwo') => s[team].players.map((p) => p._id);
  return { teamOne: ids('teamOne'), teamTwo: ids('teamTwo') };
}

describe('a TeamSpeak channel per team (fake ServerQuery, simulator)', () => {
  it('makes the channels at live, moves who is on the server, late joiners on the next poll, deletes them at the result', async () => {
    const roster = await players();
    const uids = await Promise.all(roster.map(uidOf));
    // Six are on the voice server before the match goes live, one of them twice (two clients).
    const early = roster.slice(0, 6).map((u, i) => ({ user: u, client: fake.enter(uids[i], u.name) }));
    const second = fake.enter(uids[0], `${roster[0].name} (2)`);
    const matchId = await startMatch(
      t.app,
      roster.map((p) => p.id),
    );
    expect(matchChannels(matchId)).toEqual([]); // nothing before live
    await goLive([matchId]);

    // The first sync runs when the going-live job's timer fires, beside the test's clock.
    await vi.waitFor(
      () =>
        expect(fake.moves.filter((m) => matchChannels(matchId).some((c) => c.cid === m.cid))).toHaveLength(2),
      { timeout: 10_000 },
    );
    const made = matchChannels(matchId);
    expect(made).toHaveLength(2);
    const row = await matchRow(matchId);
    const byTeam = {
      teamOne: made.find((c) => c.name === `openpug #${matchId.slice(0, 8)} ${row.teamOneName}`.slice(0, 40)),
      teamTwo: made.find((c) => c.name === `openpug #${matchId.slice(0, 8)} ${row.teamTwoName}`.slice(0, 40)),
    };
    for (const ch of made) {
      expect(ch.pid).toBe(parent.cid);
      expect(ch.semiPermanent).toBe(true);
    }
    expect(fake.commands).toContainEqual(expect.stringMatching(/^channelcreate channel_name=openpug\\s#/));

    const teams = await teamsOf(matchId, roster);
    const teamOfUser = (id: string) => (teams.teamOne.includes(id) ? 'teamOne' : 'teamTwo');
    const clientOf = (clid: number) => fake.clients.find((c) => c.clid === clid);
    for (const { user, client } of early)
      expect(clientOf(client.clid)?.cid).toBe(byTeam[teamOfUser(user.id)]?.cid);
    expect(clientOf(second.clid)?.cid).toBe(byTeam[teamOfUser(roster[0].id)]?.cid);
    // One clientmove per team for all of its clients.
    expect(fake.moves.filter((m) => made.some((c) => c.cid === m.cid))).toHaveLength(2);

    // The players see their channel and who is in it; a spectator sees neither.
    const seen = await stateFor(matchId, roster[9]);
    const inVoice = (team: 'teamOne' | 'teamTwo') =>
      early
        .map((e) => e.user.id)
        .filter((id) => teamOfUser(id) === team)
        .sort();
    expect(seen.voice?.teamOne).toEqual({ name: byTeam.teamOne?.name, members: inVoice('teamOne') });
    expect(seen.voice?.teamTwo).toEqual({ name: byTeam.teamTwo?.name, members: inVoice('teamTwo') });
    expect((await stateFor(matchId)).voice ?? null).toBeNull();
    const stranger = await createTestUser(t.app);
    expect((await stateFor(matchId, stranger)).voice ?? null).toBeNull();

    // A late joiner enters the default channel and is moved at the next poll, not before.
    const late = fake.enter(uids[7], roster[7].name);
    await vi.waitFor(async () => expect(await voice().isConnected(uids[7])).toBe(true)); // its enter notification
    await advance(ROUND_MS);
    expect(clientOf(late.clid)?.cid).toBe(FAKE_DEFAULT_CHANNEL);
    await advance(POLL_MS);
    expect(clientOf(late.clid)?.cid).toBe(byTeam[teamOfUser(roster[7].id)]?.cid);
    expect((await stateFor(matchId, roster[7])).voice?.[teamOfUser(roster[7].id)]?.members).toContain(
      roster[7].id,
    );

    // A player who walks out on purpose is left there, and no longer shown in the channel.
    fake.switchChannel(early[1].client.clid, FAKE_DEFAULT_CHANNEL);
    await vi.waitFor(async () =>
      expect((await voice().clientPlaces()).find((p) => p.clientId === early[1].client.clid)?.channelId).toBe(
        FAKE_DEFAULT_CHANNEL,
      ),
    ); // its notifyclientmoved
    await advance(POLL_MS);
    expect(clientOf(early[1].client.clid)?.cid).toBe(FAKE_DEFAULT_CHANNEL);
    expect((await stateFor(matchId, roster[1])).voice?.[teamOfUser(roster[1].id)]?.members).not.toContain(
      roster[1].id,
    );

    // The result: the channels go, their clients back to the default channel, the rows too.
    for (let i = 0; i < 80 && (await matchRow(matchId)).status === 'active'; i++) await advance(ROUND_MS);
    expect((await matchRow(matchId)).status).toBe('finished');
    await vi.waitFor(() => expect(matchChannels(matchId)).toEqual([]), { timeout: 5_000 });
    expect(fake.commands).toContainEqual(`channeldelete cid=${byTeam.teamOne?.cid} force=1`);
    expect(clientOf(early[0].client.clid)?.cid).toBe(FAKE_DEFAULT_CHANNEL);
    await vi.waitFor(async () =>
      expect(
        await t.app.ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, matchId)),
      ).toEqual([]),
    );
    expect((await stateFor(matchId, roster[0])).voice ?? null).toBeNull();
    expect(fake.floodErrors).toBe(0);
    for (const c of [...early.map((e) => e.client), second, late]) fake.leave(c.clid);
  }, 60_000);

  it('deletes the channels when a live match is cancelled', async () => {
    const roster = await players();
    const matchId = await startMatch(
      t.app,
      roster.map((p) => p.id),
    );
    await goLive([matchId]);
    await vi.waitFor(() => expect(matchChannels(matchId)).toHaveLength(2), { timeout: 10_000 });
    expect(await cancelMatch(t.app.ctx, matchId, 'ADMIN_CANCELLED')).toBe(true);
    // The deletes may wait their turn behind the flood limiter (10 commands in 3 s).
    await vi.waitFor(() => expect(matchChannels(matchId)).toEqual([]), { timeout: 10_000 });
  }, 60_000);

  it('closes a channel made while the match was being cancelled (after match.ended read the rows)', async () => {
    const roster = await players();
    const matchId = await startMatch(
      t.app,
      roster.map((p) => p.id),
    );
    const create = voice().createChannel.bind(voice());
    let made = 0;
    // The cancel lands between the second team's channel and its row: match.ended closes only the
    // first team's channel, the one stored by then.
    const spy = vi.spyOn(voice(), 'createChannel').mockImplementation(async (name, parentId) => {
      const id = await create(name, parentId);
      if (name.startsWith(`${CHANNEL_PREFIX}${matchId.slice(0, 8)}`) && ++made === 2) {
        expect(await cancelMatch(t.app.ctx, matchId, 'ADMIN_CANCELLED')).toBe(true);
        await vi.waitFor(() => expect(matchChannels(matchId)).toHaveLength(1), { timeout: 10_000 });
      }
      return id;
    });
    try {
      await goLive([matchId]);
      await vi.waitFor(() => expect(made).toBe(2), { timeout: 10_000 });
      await vi.waitFor(() => expect(matchChannels(matchId)).toEqual([]), { timeout: 10_000 });
      await vi.waitFor(async () =>
        expect(
          await t.app.ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, matchId)),
        ).toEqual([]),
      );
    } finally {
      spy.mockRestore();
    }
  }, 60_000);

  it('keeps under the flood limit when three matches go live at once (30 players to move)', async () => {
    const rosters = [await players(), await players(), await players()];
    const clients: FakeClient[] = [];
    for (const roster of rosters) for (const u of roster) clients.push(fake.enter(await uidOf(u), u.name));
    const floodBefore = fake.floodErrors;
    const ids: string[] = [];
    for (const roster of rosters)
      ids.push(
        await startMatch(
          t.app,
          roster.map((p) => p.id),
        ),
      );
    const started = Date.now();
    await goLive(ids);
    await vi.waitFor(
      () => {
        for (const id of ids) expect(matchChannels(id)).toHaveLength(2);
        const ours = new Set(clients.map((c) => c.clid));
        const inMatchChannels = fake.clients.filter(
          (c) => ours.has(c.clid) && fake.channels.some((ch) => ch.cid === c.cid && ch.pid === parent.cid),
        );
        expect(inMatchChannels).toHaveLength(30);
      },
      { timeout: 15_000 },
    );
    // 6 channelcreate + 6 clientmove + clientlist reads: more than 10 commands, spread out by the
    // limiter over more than one 3 s window instead of tripping the server's flood ban.
    expect(Date.now() - started).toBeGreaterThan(3_000);
    expect(fake.floodErrors).toBe(floodBefore);
    expect(fake.commandsWhileBanned).toBe(0);
    for (const id of ids) await cancelMatch(t.app.ctx, id, 'ADMIN_CANCELLED');
    await vi.waitFor(() => expect(ids.flatMap(matchChannels)).toEqual([]), { timeout: 15_000 });
    for (const c of clients) fake.leave(c.clid);
  }, 90_000);

  it('a hung voice server does not hold up the match; what it left behind is swept once it answers', async () => {
    const roster = await players();
    const matchId = await startMatch(
      t.app,
      roster.map((p) => p.id),
    );
    await goLive([matchId]);
    await vi.waitFor(() => expect(matchChannels(matchId)).toHaveLength(2), { timeout: 10_000 });
    fake.silent = true; // reads commands, never answers: each one times out (5 s)
    for (let i = 0; i < 80 && (await matchRow(matchId)).status === 'active'; i++) await advance(ROUND_MS);
    expect((await matchRow(matchId)).status).toBe('finished');
    // The delete went unanswered (or found no connection): past the command time-out the
    // channels and their rows are still there.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(matchChannels(matchId)).toHaveLength(2);
    expect(
      await t.app.ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, matchId)),
    ).toHaveLength(2);
    fake.silent = false;
    await voice().ready();
    await vi.waitFor(
      async () => {
        await advance(60_000);
        expect(matchChannels(matchId)).toEqual([]);
      },
      { timeout: 20_000, interval: 500 },
    );
    expect(await t.app.ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, matchId))).toEqual(
      [],
    );
  }, 90_000);

  it('at start, the sweep deletes match channels of no live match under the parent, nothing else', async () => {
    await voice().ready();
    const orphan = fake.addChannel('openpug #deadbeef Team Gone', parent.cid);
    const elsewhere = fake.addChannel('openpug #deadbeef Team Gone', 0);
    const own = fake.addChannel('Clan talk', parent.cid);
    await armCleanup(t.app.ctx, clock.now());
    await t.app.ctx.jobs.runDue();
    // The job may have fired on its own timer instead, while runDue found it claimed: wait for it.
    // The sweep's commands queue behind the flood limiter, which the tests before this one kept
    // busy (10 commands a 3 s window): give it more than a window, not waitFor's default 1 s.
    await vi.waitFor(() => expect(fake.channels.map((c) => c.cid)).not.toContain(orphan.cid), {
      timeout: 10_000,
    });
    const cids = fake.channels.map((c) => c.cid);
    expect(cids).toContain(elsewhere.cid);
    expect(cids).toContain(own.cid);
    expect(
      await t.app.ctx.db.select().from(voiceChannels).where(like(voiceChannels.name, 'openpug #deadbeef%')),
    ).toEqual([]);
  });
});
