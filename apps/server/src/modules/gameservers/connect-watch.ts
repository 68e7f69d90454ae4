/**
 * Who is on a match's game server while the match waits for its players. Once the server is ready
 * (`startConnectWindow`: the MatchZy load is confirmed, the simulator's server is up) the connect
 * deadline runs (matches/substitutes.ts) and a persisted poll (job `gameserver.connect-poll`, key
 * `<matchId>:<due time>`) asks the provider every MATCH_CONNECT_POLL_MS who is on the server —
 * MatchZy sends no connect events (see cs2-status.ts) — until the match is live or over. Each poll
 * schedules the next one in its claiming transaction first (a crash goes on polling), then asks the
 * server after commit (no network call inside a transaction) and stores the answer in a new one.
 */
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { beforeLive, matchStateOf, waitsForPlayers } from '../matches';
import { armConnectDeadline, loadMatch, recordPresence } from '../matches/service';
import type { GameServerProvider } from './provider';
import { providerOf } from './service';

/** Who is on the server while the match waits for its players; one row per poll (`at`: its time). */
export const connectPollJob = defineJob({
  kind: 'gameserver.connect-poll',
  payload: z.object({ matchId: jobField.id, at: jobField.time }),
  handle: (ctx, tx, after, { matchId }) => connectPoll(ctx, providerOf(ctx), tx, after, matchId),
});

const pollEvery = (ctx: AppContext) => Math.max(100, ctx.config.MATCH_CONNECT_POLL_MS);

/** The match's game server is ready: the connect deadline starts, the server is asked from the next poll on. */
export async function startConnectWindow(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
): Promise<void> {
  const found = await loadMatch(tx, matchId);
  if (!found || !beforeLive(matchStateOf(found.match)) || found.match.deadline !== null) return;
  if ((await armConnectDeadline(ctx, tx, after, matchId)) === null) return;
  const first = ctx.clock.now() + pollEvery(ctx);
  await ctx.jobs.schedule(tx, after, connectPollJob, { matchId, at: first }, first);
}

/** Job `gameserver.connect-poll`: asks the server who is on it, while the match waits for its players. */
export async function connectPoll(
  ctx: AppContext,
  provider: GameServerProvider,
  tx: Db,
  after: After,
  matchId: string,
): Promise<void> {
  const found = await loadMatch(tx, matchId);
  if (!found || !waitsForPlayers(ctx, found.match)) return; // live, over, or the window is off
  const next = ctx.clock.now() + pollEvery(ctx);
  await ctx.jobs.schedule(tx, after, connectPollJob, { matchId, at: next }, next);
  after.add(async () => {
    const keys = (await provider.playersOnServer?.(matchId)) ?? null;
    if (keys === null) return; // cannot tell right now: the next poll asks again
    await inTransaction(ctx.db, (tx2, after2) => recordPresence(ctx, tx2, after2, matchId, keys), logOf(ctx));
  });
}
