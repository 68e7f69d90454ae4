/**
 * A TeamSpeak channel per team (docs/contract.md §4 "Match voice channels"). When a match goes
 * live (lifecycle effect `openVoiceChannels`) job `voice.channels` starts for it: each run re-arms
 * itself VOICE_CHANNEL_POLL_MS later and, after commit, syncs the match — creates the two channels
 * under the parent if missing, moves every rostered player's voice client that is not in its
 * team's channel and was never moved by openpug (so late joiners are moved once, and a player who
 * leaves the channel on purpose stays where they went) and stores who is in each channel. The
 * channels are deleted when the match ends (`match.ended`); channels left behind by a voice server
 * that was down, or by a crash, are swept by job `voice.cleanup` (at start and after a failure).
 *
 * The voice server is never in the way of the match: every voice call runs after commit and its
 * failure is only logged. On TeamSpeak every command passes the ServerQuery flood limiter; one
 * run costs at most one `clientlist` (shared by all matches for 2 s) and one `clientmove` per team.
 */
import type { MatchVoice, TeamKey } from '@openpug/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { findUsersByIds } from '../accounts/service';
import { isRostered, type MatchRow, matchStateOf } from '../matches';
import { isMatchLive, liveMatchIds, loadMatch, publishState } from '../matches/service';
import { voiceChannels } from './schema';
import { VoiceChannelMissingError, VoiceChannelNameInUseError, type VoiceClientPlace } from './types';

const TEAMS: readonly TeamKey[] = ['teamOne', 'teamTwo'];
/** Every match channel's name starts so; the sweep deletes only channels named like this. */
export const CHANNEL_PREFIX = 'openpug #';
/** TeamSpeak 3 keeps channel names to 40 characters. */
const MAX_NAME = 40;
/** After a failed delete or sweep, the next sweep (ms). */
const CLEANUP_RETRY_MS = 60_000;

type ChannelRow = typeof voiceChannels.$inferSelect;

/** Job `voice.channels`: while the match is live, one sync now and the next one armed. */
export const voiceChannelsJob = defineJob({
  kind: 'voice.channels',
  payload: z.object({ matchId: jobField.id }),
  handle: async (ctx, tx, after, { matchId }) => {
    if (!(await isMatchLive(tx, matchId))) return; // over or restarting: match.ended cleans up
    await ctx.jobs.reschedule(
      tx,
      after,
      voiceChannelsJob,
      { matchId },
      ctx.clock.now() + ctx.config.VOICE_CHANNEL_POLL_MS,
    );
    after.add(() => syncMatchChannels(ctx, matchId));
  },
});

/** Job `voice.cleanup`: deletes channels of matches that are over, and unknown `openpug #…` ones. */
export const voiceCleanupJob = defineJob({
  kind: 'voice.cleanup',
  payload: z.object({}),
  singleRow: 'next',
  handle: async (ctx, _tx, after) => {
    after.add(async () => {
      if (!(await sweepChannels(ctx))) await armCleanup(ctx, ctx.clock.now() + CLEANUP_RETRY_MS);
    });
  },
});

export function voiceChannelsOn(ctx: AppContext): boolean {
  return ctx.voice.matchChannelParent() !== null;
}

/** The lifecycle effect at going live: the first sync right away (nothing when the feature is off). */
export async function openVoiceChannels(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
): Promise<void> {
  if (voiceChannelsOn(ctx))
    await ctx.jobs.reschedule(tx, after, voiceChannelsJob, { matchId }, ctx.clock.now());
}

export async function armCleanup(ctx: AppContext, at: number): Promise<void> {
  await inTransaction(
    ctx.db,
    (tx, after) => ctx.jobs.reschedule(tx, after, voiceCleanupJob, {}, at),
    logOf(ctx),
  );
}

/** `openpug #1a2b3c4d Team Alice`, cut to TeamSpeak's length. */
export function channelName(matchId: string, teamName: string): string {
  return `${CHANNEL_PREFIX}${matchId.slice(0, 8)} ${teamName}`.slice(0, MAX_NAME).trimEnd();
}

/** One sync of a live match's channels; never throws (the voice server may be down). */
export async function syncMatchChannels(ctx: AppContext, matchId: string): Promise<void> {
  const running = ctx.state.voice.syncing;
  if (running.has(matchId)) return; // the previous run still waits for the voice server
  running.add(matchId);
  try {
    await syncOnce(ctx, matchId);
  } catch (err) {
    ctx.log.warn({ err, matchId }, 'match voice channels: sync failed; the next poll tries again');
  } finally {
    running.delete(matchId);
  }
}

async function syncOnce(ctx: AppContext, matchId: string): Promise<void> {
  const parent = ctx.voice.matchChannelParent();
  const found = await loadMatch(ctx.db, matchId);
  if (parent === null || !found || matchStateOf(found.match) !== 'live') return;
  const { rows, created } = await ensureChannels(ctx, found.match, parent);
  // The match may have ended while its channels were being made: `match.ended` then read the rows
  // before these were stored (an admin cancelling just as it went live), so they are closed here.
  if (created && !(await isMatchLive(ctx.db, matchId))) return closeMatchChannels(ctx, matchId);
  const roster = found.players.filter(isRostered);
  const who: Who = {
    userOf: await userByIdentity(
      ctx.db,
      roster.map((p) => p.userId),
    ),
    teamOf: new Map(roster.map((p) => [p.userId, p.team as TeamKey])),
  };
  const places = await ctx.voice.clientPlaces();
  let changed = created;
  for (const row of rows) if (await syncTeam(ctx, row, places, who)) changed = true;
  if (changed) await publishState(ctx, matchId);
}

/** Which rostered user an identity is (linked identities only), and each user's team. */
interface Who {
  userOf: Map<string, string>;
  teamOf: Map<string, TeamKey>;
}

async function userByIdentity(db: Db, userIds: string[]): Promise<Map<string, string>> {
  const linked = (await findUsersByIds(db, userIds)).filter((u) => u.teamSpeakId);
  return new Map(linked.map((u) => [u.teamSpeakId as string, u.id]));
}

/**
 * One team: moves its players' clients that openpug never moved into the channel, then stores who
 * is in it. `places` is updated with the moves. True when what the room shows changed.
 */
async function syncTeam(ctx: AppContext, row: ChannelRow, places: VoiceClientPlace[], who: Who) {
  const ofTeam = (p: VoiceClientPlace) => {
    const userId = who.userOf.get(p.identityId);
    return userId !== undefined && who.teamOf.get(userId) === row.team;
  };
  const toMove = places.filter(
    (p) => ofTeam(p) && p.channelId !== row.channelId && !row.moved.includes(p.clientId),
  );
  const where = and(eq(voiceChannels.matchId, row.matchId), eq(voiceChannels.team, row.team));
  if (toMove.length > 0) {
    try {
      await ctx.voice.moveClients(
        toMove.map((p) => p.clientId),
        row.channelId,
      );
    } catch (err) {
      if (!(err instanceof VoiceChannelMissingError)) throw err;
      // Gone under us (a voice-server restart): forget it, the next poll makes it again.
      await ctx.db.delete(voiceChannels).where(where);
      return true;
    }
    for (const p of toMove) p.channelId = row.channelId;
  }
  const inChannel = places.filter((p) => p.channelId === row.channelId && ofTeam(p));
  const members = [...new Set(inChannel.map((p) => who.userOf.get(p.identityId) as string))].sort();
  const membersChanged = members.join() !== row.members.join();
  if (toMove.length > 0 || membersChanged)
    await ctx.db
      .update(voiceChannels)
      .set({ members, moved: [...row.moved, ...toMove.map((p) => p.clientId)] })
      .where(where);
  return membersChanged;
}

/** The match's channel rows, creating the channels that are missing; `created`: some were. */
async function ensureChannels(
  ctx: AppContext,
  match: MatchRow,
  parent: number,
): Promise<{ rows: ChannelRow[]; created: boolean }> {
  const rows = await ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, match.id));
  const out: ChannelRow[] = [];
  for (const team of TEAMS) {
    const have = rows.find((r) => r.team === team);
    if (have) {
      out.push(have);
      continue;
    }
    const name = channelName(match.id, team === 'teamOne' ? match.teamOneName : match.teamTwoName);
    const channelId = await createOrAdopt(ctx, name, parent);
    const [inserted] = await ctx.db
      .insert(voiceChannels)
      .values({ matchId: match.id, team, channelId, name, createdAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning();
    if (inserted) out.push(inserted);
    else {
      // Another instance stored this team's channel first: use its row.
      const [theirs] = await ctx.db
        .select()
        .from(voiceChannels)
        .where(and(eq(voiceChannels.matchId, match.id), eq(voiceChannels.team, team)));
      if (theirs) out.push(theirs);
    }
  }
  return { rows: out, created: out.length > rows.length };
}

/** Creates the channel; when the name is taken under the parent (a run before a crash), uses that one. */
async function createOrAdopt(ctx: AppContext, name: string, parent: number): Promise<number> {
  try {
    return await ctx.voice.createChannel(name, parent);
  } catch (err) {
    if (!(err instanceof VoiceChannelNameInUseError)) throw err;
    const existing = (await ctx.voice.listChannels()).find((c) => c.parentId === parent && c.name === name);
    if (!existing) throw err;
    return existing.id;
  }
}

/** At `match.ended`: the channels go (players in them go to the default channel), then the rows. */
export async function closeMatchChannels(ctx: AppContext, matchId: string): Promise<void> {
  const rows = await ctx.db.select().from(voiceChannels).where(eq(voiceChannels.matchId, matchId));
  if (rows.length === 0) return;
  try {
    for (const row of rows) await ctx.voice.deleteChannel(row.channelId);
    await ctx.db.delete(voiceChannels).where(eq(voiceChannels.matchId, matchId));
  } catch (err) {
    ctx.log.warn({ err, matchId }, 'match voice channels: delete failed; the cleanup job retries');
    await armCleanup(ctx, ctx.clock.now() + CLEANUP_RETRY_MS);
  }
}

/**
 * Deletes the channels of matches that are not live any more, and channels under the parent named
 * `openpug #<id>` of no live match (made just before a crash, before their row was stored).
 * False when the voice server did not answer.
 */
export async function sweepChannels(ctx: AppContext): Promise<boolean> {
  try {
    const liveIds = await liveMatchIds(ctx.db);
    const rows = await ctx.db.select().from(voiceChannels);
    for (const row of rows.filter((r) => !liveIds.has(r.matchId))) {
      await ctx.voice.deleteChannel(row.channelId);
      await ctx.db
        .delete(voiceChannels)
        .where(and(eq(voiceChannels.matchId, row.matchId), eq(voiceChannels.team, row.team)));
    }
    await deleteStrays(ctx, liveIds);
    return true;
  } catch (err) {
    ctx.log.warn({ err }, 'match voice channels: sweep failed; retrying later');
    return false;
  }
}

/** Channels under the parent named `openpug #<id>` whose match (by its first 8 characters) is not live. */
async function deleteStrays(ctx: AppContext, liveIds: Set<string>): Promise<void> {
  const parent = ctx.voice.matchChannelParent();
  if (parent === null) return;
  const liveShort = new Set([...liveIds].map((id) => id.slice(0, 8)));
  for (const ch of await ctx.voice.listChannels()) {
    if (ch.parentId !== parent || !ch.name.startsWith(CHANNEL_PREFIX)) continue;
    const short = ch.name.slice(CHANNEL_PREFIX.length, CHANNEL_PREFIX.length + 8);
    if (!liveShort.has(short)) await ctx.voice.deleteChannel(ch.id);
  }
}

/** For the match state: the channels and their members while the match is live, else null. */
export async function voiceStateOf(db: Db, match: MatchRow): Promise<MatchVoice | null> {
  if (matchStateOf(match) !== 'live') return null;
  const rows = await db.select().from(voiceChannels).where(eq(voiceChannels.matchId, match.id));
  if (rows.length === 0) return null;
  const of = (team: TeamKey) => {
    const row = rows.find((r) => r.team === team);
    return row ? { name: row.name, members: row.members } : null;
  };
  return { teamOne: of('teamOne'), teamTwo: of('teamTwo') };
}
