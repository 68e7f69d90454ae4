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
 *
 * Only ranked players are listed: those with PLACEMENT_MATCHES finished matches or more
 * (docs/contract.md §3 Placement). The filter is part of the one aggregate the snapshot already
 * runs (HAVING, then an inner join), so a build reads no more than before.
 */
import type { RankingPage, RankingQuery, RankingRow } from '@openpug/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { executeRows } from '../../db/client';
import { logOf } from '../../jobs';
import { users } from '../accounts/schema';
import { matches, matchPlayers } from '../matches/schema';

interface Entry {
  row: RankingRow;
  nameKey: string;
}

type SortKey = NonNullable<RankingQuery['sort']>;

/** The entries in one order, with their names laid end to end for the name filter. */
interface View {
  entries: Entry[];
  /** Lower-case names joined by NUL (which no stored name contains: input with NUL is refused). */
  names: string;
  /** Where each entry's name starts in `names`. */
  starts: Int32Array;
  /** The last filters asked of this view: needle → matching entries. */
  filtered: Map<string, Entry[]>;
}

interface Snapshot {
  stamp: string;
  /** Views by `${sort}:${order}`, computed on first use; `rank:1` always there. */
  views: Map<string, View>;
  /** Pages already written out as JSON: most reads are of the same few pages (page 1 above all). */
  pages: Map<string, string>;
  /** Rank by user id, made on the first rank lookup (player cards, profiles, friend lists). */
  rankById?: Map<string, number>;
  builtAt: number;
}

const PAGE_CACHE = 512;

const FILTER_CACHE = 64;

function viewOf(entries: Entry[]): View {
  const starts = new Int32Array(entries.length);
  let at = 0;
  entries.forEach((e, i) => {
    starts[i] = at;
    at += e.nameKey.length + 1;
  });
  return { entries, names: entries.map((e) => e.nameKey).join('\u0000'), starts, filtered: new Map() };
}

/** The entry whose name covers position `pos` of `names` (binary search over the starts). */
function entryAt(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The entries whose name contains `needle`, in the view's order: one indexOf scan over the joined
 * names (native string search) instead of a test per entry; recent needles are remembered.
 */
function filterView(view: View, needle: string): Entry[] {
  const cached = view.filtered.get(needle);
  if (cached) return cached;
  const found: Entry[] = [];
  let pos = view.names.indexOf(needle);
  while (pos !== -1) {
    const i = entryAt(view.starts, pos);
    found.push(view.entries[i]);
    const next = i + 1 < view.starts.length ? view.starts[i + 1] : view.names.length;
    pos = view.names.indexOf(needle, next);
  }
  if (view.filtered.size >= FILTER_CACHE) view.filtered.delete(view.filtered.keys().next().value as string);
  view.filtered.set(needle, found);
  return found;
}

const DEFAULT_ORDER: Record<SortKey, 1 | -1> = {
  rank: 1,
  name: 1,
  losses: 1,
  elo: -1,
  wins: -1,
  winRate: -1,
};

const sortValue: Record<SortKey, (e: Entry) => number | string> = {
  rank: (e) => e.row.rank,
  elo: (e) => e.row.stats.elo,
  name: (e) => e.nameKey,
  wins: (e) => e.row.wins,
  losses: (e) => e.row.losses,
  winRate: (e) => e.row.winRate,
};

function comparator(sort: SortKey, order: 1 | -1) {
  const value = sortValue[sort];
  return (a: Entry, b: Entry) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) return (x < y ? -1 : 1) * order;
    return a.row.rank - b.row.rank; // ties: rank ascending, as before
  };
}

async function changeStamp(ctx: AppContext): Promise<string> {
  const [row] = await executeRows<{ users: number; finished: number }>(
    ctx.db,
    sql`
      SELECT (SELECT count(*) FROM ${users})::int AS users,
             (SELECT count(*) FROM ${matches} WHERE status = 'finished')::int AS finished`,
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
  const placement = ctx.config.PLACEMENT_MATCHES;
  // Wins and losses as the leaderboard always counted them: a draw is not a win. With no
  // placement, players without matches are listed too (left join).
  const rows = await executeRows<Row>(
    ctx.db,
    sql`
      WITH results AS (
        SELECT mp.user_id,
          count(*) FILTER (WHERE m.winner = mp.team)::int AS wins,
          count(*) FILTER (WHERE m.winner IS DISTINCT FROM mp.team)::int AS losses
        FROM ${matchPlayers} mp JOIN ${matches} m ON m.id = mp.match_id
        WHERE m.status = 'finished'
        GROUP BY mp.user_id
        HAVING count(*) >= ${placement}
      )
      SELECT u.id, u.name, u.avatar, u.banner, u.elo,
        coalesce(r.wins, 0) AS wins, coalesce(r.losses, 0) AS losses
      FROM ${users} u ${placement > 0 ? sql`JOIN` : sql`LEFT JOIN`} results r ON r.user_id = u.id
      ORDER BY u.elo DESC, u.created_at ASC, u.id ASC`,
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
  return { stamp, views: new Map([['rank:1', viewOf(entries)]]), pages: new Map(), builtAt: Date.now() };
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
  /** Bumped by every invalidate(); the snapshot remembers the one it was begun at. */
  let generation = 0;
  let snapshotGeneration = -1;

  const rebuild = (): Promise<Snapshot> => {
    if (building) return building;
    dirty = false;
    const begunAt = generation;
    building = buildSnapshot(ctx)
      .then((s) => {
        snapshot = s;
        snapshotGeneration = begunAt;
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
    if (!snapshot || dirty || options.refreshMs === 0) {
      // A build already running may have begun before the change that made this read wait:
      // then one more, begun after it.
      const wanted = generation;
      let s = await rebuild();
      while (snapshotGeneration < wanted) s = await rebuild();
      return s;
    }
    if (Date.now() - checkedAt >= options.refreshMs && !building) refreshIfChanged(snapshot);
    return snapshot;
  }

  function view(s: Snapshot, sort: SortKey, order: 1 | -1): View {
    const key = `${sort}:${order}`;
    let v = s.views.get(key);
    if (!v) {
      const byRank = s.views.get('rank:1') as View;
      v = viewOf([...byRank.entries].sort(comparator(sort, order)));
      s.views.set(key, v);
    }
    return v;
  }

  return {
    /** Something the leaderboard shows changed here: the next read waits for a new snapshot. */
    invalidate(): void {
      dirty = true;
      generation++;
    },

    async page(q: RankingQuery): Promise<RankingPage> {
      return pageOf(await current(), q);
    },

    /**
     * The leaderboard rank of each id (null: not ranked, or unknown), from the same snapshot the
     * leaderboard pages come from, so a card, a profile and the leaderboard never disagree.
     */
    async ranks(ids: readonly string[]): Promise<Map<string, number | null>> {
      const s = await current();
      if (!s.rankById) {
        const byRank = (s.views.get('rank:1') as View).entries;
        s.rankById = new Map(byRank.map((e) => [e.row._id, e.row.rank]));
      }
      const rankById = s.rankById;
      return new Map(ids.map((id) => [id, rankById.get(id) ?? null]));
    },

    /** The page as JSON text, written once per snapshot and query (the route sends it as is). */
    async pageJson(q: RankingQuery): Promise<string> {
      const s = await current();
      const key = `${q.sort ?? 'rank'}:${q.order ?? ''}:${q.filter?.trim().toLowerCase() ?? ''}:${q.page}:${q.limit}`;
      let json = s.pages.get(key);
      if (json === undefined) {
        json = JSON.stringify(pageOf(s, q));
        if (s.pages.size >= PAGE_CACHE) s.pages.delete(s.pages.keys().next().value as string);
        s.pages.set(key, json);
      }
      return json;
    },
  };

  function pageOf(s: Snapshot, q: RankingQuery): RankingPage {
    const sort = q.sort ?? 'rank';
    const order = (q.order ?? DEFAULT_ORDER[sort]) as 1 | -1;
    const needle = q.filter?.trim().toLowerCase();
    const v = view(s, sort, order);
    const list = needle ? filterView(v, needle) : v.entries;
    const start = (q.page - 1) * q.limit;
    return {
      docs: list.slice(start, start + q.limit).map((e) => e.row),
      totalDocs: list.length,
      placementMatches: ctx.config.PLACEMENT_MATCHES,
    };
  }
}

export type Leaderboard = ReturnType<typeof createLeaderboard>;

/** The ranking module's per-app state: its leaderboard, once the module is registered. */
export interface RankingModuleState {
  leaderboard?: Leaderboard;
}
