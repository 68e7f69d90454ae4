/**
 * The reliability score (docs/contract.md §4 "Reliability"): of a player's last RELIABILITY_MATCHES
 * match calls, the share (whole percent) they accepted, connected to and finished. A call is a
 * missed accept phase or a left / not-connected match (a queue offence of kind `miss` or `leave`,
 * not lifted by an admin) or a finished match the player played to the end (on the roster at the
 * result, not a leaver). Matches cancelled for reasons of their own (a dead server, an admin) do
 * not count either way. Null for a player without any call yet.
 */
import { RELIABILITY_MATCHES } from '@openpug/shared';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, executeRows } from '../../db/client';

/** The calls of the users whose id is in `ids` (a list, or an outer statement's id column): user_id, ok, at. */
const callsOf = (ids: SQL) => sql`
  SELECT c.user_id, false AS ok, c.created_at AS at
  FROM queue_cooldowns c
  WHERE c.user_id IN (${ids}) AND c.lifted_at IS NULL
  UNION ALL
  SELECT p.user_id, true AS ok, m.finished_at AS at
  FROM match_players p JOIN matches m ON m.id = p.match_id
  WHERE p.user_id IN (${ids}) AND m.status = 'finished' AND p.team IS NOT NULL
    AND p.left_at IS NULL AND p.replaced_at IS NULL`;

/** The score of a set of calls (rows with `ok`): whole percent kept, null without any. */
const SCORE_SQL = sql`CASE WHEN count(*) > 0 THEN round(count(*) FILTER (WHERE ok) * 100.0 / count(*))::int END`;

/** The users' scores, one statement for many (the queue reads a crowd's at the match start). */
export async function reliabilityOf(db: Db, userIds: readonly string[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>(userIds.map((id) => [id, null]));
  if (userIds.length === 0) return out;
  const ids = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await executeRows<{ user_id: string; score: number | null }>(
    db,
    sql`
    SELECT user_id, ${SCORE_SQL} AS score
    FROM (
      SELECT user_id, ok, row_number() OVER (PARTITION BY user_id ORDER BY at DESC) AS n
      FROM (${callsOf(ids)}) calls
    ) ranked
    WHERE n <= ${RELIABILITY_MATCHES}
    GROUP BY user_id`,
  );
  // SCORE_SQL casts to int: both drivers give a number.
  for (const r of rows) out.set(r.user_id, r.score);
  return out;
}

/**
 * The score of the user whose id is `userId`, an outer statement's column: a column of that
 * statement (the user card reads it with the user's row, GET /api/users/:id).
 */
export function reliabilityColumn(userId: SQLWrapper): SQL<number | null> {
  return sql<number | null>`(SELECT ${SCORE_SQL} FROM (
    SELECT ok FROM (${callsOf(sql`${userId}`)}) calls ORDER BY at DESC LIMIT ${RELIABILITY_MATCHES}
  ) latest)`;
}
