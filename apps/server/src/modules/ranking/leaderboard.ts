/**
 * The leaderboard served from a snapshot in memory.
 *
 * Why: computed per request (a window function over every user, joined with an aggregate over
 * every match row), 100,000 players and 20,000 matches gave 2–8 requests/s on PostgreSQL. A
 * snapshot is one consistent ranking of everyone: ranks are exact within it and stable across
 * pages, sorts and filters, and a page costs no database round trip (filter, sort and slice in
 * memory; each sort order is computed once per snapshot).
 *
 * Freshness:
 * - A change this instance makes or hears of (a match ended, a user created or their public
 *   fields changed: bus events) marks the snapshot dirty; the next read waits for a new one, so a
 *   player sees their own result at once.
 * - Changes on other instances: every RANKING_REFRESH_MS a read compares a cheap change stamp
 *   (users and finished matches counted) and rebuilds in the background when it moved, serving
 *   the old snapshot meanwhile; names, avatars and banners changed elsewhere follow at the latest
 *   after RANKING_FULL_REFRESH_MS. RANKING_REFRESH_MS=0 rebuilds for every read (exact; tests).
 * Rebuilds are single-flight.
 */
import type { RankingPage, RankingQuery, RankingRow } from '@openpug/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { users } from '../accounts/schema';
import { matches, matchPlayers } from '../matches/schema';

interface Entry {
  row: RankingRow;
  nameKey: string;
}

type SortKey = NonNullable<RankingQuery['sort']>;

interface Snapshot {
  /** In rank order. */
  entries: Entry[];
  stamp: string;
  /** Sorted views, computed on first use: `${sort}:${order}`. */
  views: Map<string, Entry[]>;
  builtAt: number;
}

const DEFAULT_ORDER: Record<SortKey, 1 | -1> = {
  rank: 1,
  name: 1,
  losses: 1,
  elo: -1,
  wins: -1,
  winRate: -1,
};

const valueOf: Record<SortKey, (e: Entry) => number | string> = {
  rank: (e) => e.row.rank,
  elo: (e) => e.row.stats.elo,
  name: (e) => e.nameKey,
  wins: (e) => e.row.wins,
  losses: (e) => e.row.losses,
  winRate: (e) => e.row.winRate,
};

function comparator(sort: SortKey, order: 1 | -1) {
  const value = valueOf[sort];
  return (a: Entry, b: Entry) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) return (x < y ? -1 : 1) * order;
    return a.row.rank - b.row.rank; // ties: rank ascending, as before
  };
}

/** PGlite returns {rows}, node-postgres a result with rows too; drizzle's execute differs by driver. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

async function changeStamp(ctx: AppContext): Promise<string> {
  const [row] = rowsOf<{ users: number; finished: number }>(
    await ctx.db.execute(sql`
      SELECT (SELECT count(*) FROM ${users})::int AS users,
             (SELECT count(*) FROM ${matches} WHERE status = 'finished')::int AS finished`),
  );
  return `${row?.users ?? 0}:${row?.finished ?? 0}`;
}

async function buildSnapshot(ctx: AppContext): Promise<Snapshot> {
  const stamp = await changeStamp(ctx);
  type Row = {
    id: string;
    name: string | null;
    avatar: string | null;
    banner: string;
    elo: number;
    wins: number;
    losses: number;
  };
  // Wins and losses as the leaderboard always counted them: a draw is not a win.
  const rows = rowsOf<Row>(
    await ctx.db.execute(sql`
      WITH results AS (
        SELECT mp.user_id,
          count(*) FILTER (WHERE m.winner = mp.team)::int AS wins,
          count(*) FILTER (WHERE m.winner IS DISTINCT FROM mp.team)::int AS losses
        FROM ${matchPlayers} mp JOIN ${matches} m ON m.id = mp.match_id
        WHERE m.status = 'finished'
        GROUP BY mp.user_id
      )
      SELECT u.id, u.name, u.avatar, u.banner, u.elo,
        coalesce(r.wins, 0) AS wins, coalesce(r.losses, 0) AS losses
      FROM ${users} u LEFT JOIN results r ON r.user_id = u.id
      ORDER BY u.elo DESC, u.created_at ASC, u.id ASC`),
  );
  const entries = rows.map((r, i): Entry => {
    const wins = Number(r.wins);
    const losses = Number(r.losses);
    return {
      nameKey: (r.name ?? '').toLowerCase(),
      row: {
        _id: r.id,
        rank: i + 1,
        name: r.name,
        avatar: r.avatar,
        banner: r.banner,
        stats: { elo: Number(r.elo) },
        wins,
        losses,
        winRate: wins + losses === 0 ? 0 : wins / (wins + losses),
      },
    };
  });
  return { entries, stamp, views: new Map(), builtAt: Date.now() };
}

export interface LeaderboardOptions {
  refreshMs: number;
  fullRefreshMs: number;
}

export function createLeaderboard(ctx: AppContext, options: LeaderboardOptions) {
  let snapshot: Snapshot | null = null;
  let building: Promise<Snapshot> | null = null;
  let dirty = true;
  let checkedAt = 0;

  const rebuild = (): Promise<Snapshot> => {
    if (building) return building;
    dirty = false;
    building = buildSnapshot(ctx)
      .then((s) => {
        snapshot = s;
        checkedAt = Date.now();
        return s;
      })
      .catch((err) => {
        dirty = true;
        throw err;
      })
      .finally(() => {
        building = null;
      });
    return building;
  };

  /** Background: rebuild when another instance changed what the stamp counts, or when old. */
  const refreshIfChanged = (current: Snapshot) => {
    checkedAt = Date.now();
    void (async () => {
      const old = Date.now() - current.builtAt >= options.fullRefreshMs;
      if (old || (await changeStamp(ctx)) !== current.stamp) await rebuild();
    })().catch((err) => logOf(ctx).error({ err }, 'leaderboard refresh failed'));
  };

  async function current(): Promise<Snapshot> {
    if (!snapshot || dirty || options.refreshMs === 0) return rebuild();
    if (Date.now() - checkedAt >= options.refreshMs && !building) refreshIfChanged(snapshot);
    return snapshot;
  }

  function view(s: Snapshot, sort: SortKey, order: 1 | -1): Entry[] {
    if (sort === 'rank' && order === 1) return s.entries;
    const key = `${sort}:${order}`;
    let sorted = s.views.get(key);
    if (!sorted) {
      sorted = [...s.entries].sort(comparator(sort, order));
      s.views.set(key, sorted);
    }
    return sorted;
  }

  return {
    /** Something the leaderboard shows changed here: the next read waits for a new snapshot. */
    invalidate(): void {
      dirty = true;
    },

    async page(q: RankingQuery): Promise<RankingPage> {
      const s = await current();
      const sort = q.sort ?? 'rank';
      const order = (q.order ?? DEFAULT_ORDER[sort]) as 1 | -1;
      const needle = q.filter?.trim().toLowerCase();
      let list = view(s, sort, order);
      if (needle) list = list.filter((e) => e.nameKey.includes(needle));
      const start = (q.page - 1) * q.limit;
      return { docs: list.slice(start, start + q.limit).map((e) => e.row), totalDocs: list.length };
    },
  };
}

export type Leaderboard = ReturnType<typeof createLeaderboard>;
