/**
 * Who is on a match's game server while the match waits for its players. Once the server is ready
 * (`startConnectWindow`: the MatchZy load is confirmed, the simulator's server is up) the connect
 * deadline runs (matches/substitutes.ts) and a persisted poll (job `gameserver.connect-poll`, key
 * `<matchId>:<due time>`) asks the provider every MATCH_CONNECT_POLL_MS who is on the server —
 * MatchZy sends no connect events (see cs2-status.ts) — until the match is live or over. Each poll
 * schedules the next one in its claiming transaction first (a crash goes on polling), then asks the
 * server after commit (no network call inside a transaction) and stores the answer in a new one.
 */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, jobsOf, logOf } from '../../jobs';
import { beforeLive, matchStateOf } from '../matches/lifecycle';
import { waitsForPlayers } from '../matches/presence';
import { loadMatch } from '../matches/service';
import { armConnectDeadline, recordPresence } from '../matches/substitutes';
import type { GameServerProvider } from './provider';

export const CONNECT_POLL_JOB = 'gameserver.connect-poll';

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
  await jobsOf(ctx).schedule(tx, after, CONNECT_POLL_JOB, `${matchId}:${first}`, first);
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
  await jobsOf(ctx).schedule(tx, after, CONNECT_POLL_JOB, `${matchId}:${next}`, next);
  after.add(async () => {
    const keys = (await provider.playersOnServer?.(matchId)) ?? null;
    if (keys === null) return; // cannot tell right now: the next poll asks again
    await inTransaction(ctx.db, (tx2, after2) => recordPresence(ctx, tx2, after2, matchId, keys), logOf(ctx));
  });
}
