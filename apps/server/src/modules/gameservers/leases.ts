/**
 * The lease table of the MatchZy provider: booking a pool server for a match, finding a match's
 * lease (and so its numeric MatchZy match id), freeing it.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type GameServerLease, gameServerLeases } from './schema';

/** Open leases (busy servers). */
export function openLeases(db: Db): Promise<GameServerLease[]> {
  return db.select().from(gameServerLeases).where(isNull(gameServerLeases.releasedAt));
}

/**
 * Books `server` for `matchId`; null when the server already has an open lease (or the match a
 * lease). ON CONFLICT DO NOTHING waits for a competing transaction instead of failing ours.
 */
export async function bookServer(
  db: Db,
  matchId: string,
  server: string,
  now: number,
): Promise<GameServerLease | null> {
  const [lease] = await db
    .insert(gameServerLeases)
    .values({ matchId, server, allocatedAt: now })
    .onConflictDoNothing()
    .returning();
  return lease ?? null;
}

export async function deleteLease(db: Db, gameMatchId: number): Promise<void> {
  await db.delete(gameServerLeases).where(eq(gameServerLeases.gameMatchId, gameMatchId));
}

export async function leaseOfMatch(db: Db, matchId: string): Promise<GameServerLease | null> {
  const [lease] = await db.select().from(gameServerLeases).where(eq(gameServerLeases.matchId, matchId));
  return lease ?? null;
}

/** Frees the lease; false when it was free already. */
export async function releaseLease(db: Db, gameMatchId: number, now: number): Promise<boolean> {
  const rows = await db
    .update(gameServerLeases)
    .set({ releasedAt: now })
    .where(and(eq(gameServerLeases.gameMatchId, gameMatchId), isNull(gameServerLeases.releasedAt)))
    .returning({ id: gameServerLeases.gameMatchId });
  return rows.length > 0;
}

/** Whether `matchid` (as a game server reports it) is the numeric MatchZy id of `matchId`. */
export async function isGameMatchIdOf(db: Db, matchId: string, matchid: string): Promise<boolean> {
  if (!/^\d{1,10}$/.test(matchid)) return false;
  const lease = await leaseOfMatch(db, matchId);
  return lease?.gameMatchId === Number(matchid);
}
