/**
 * Leaderboard, player stats, highlights and seasons — all computed from the stored matches
 * (match_players: Elo before/after, kills/deaths/assists/damage/headshots; match_rounds: per-round
 * per-player numbers). Only finished matches count.
 *
 * Leaderboard rank = position in the order Elo descending, older account first, then id, so ties
 * get distinct, stable positions whatever the page, sort or filter (served by leaderboard.ts).
 */
import type {
  CompetitionStats,
  EloPoint,
  Highlight,
  Locale,
  Season,
  SeasonStanding,
  SeasonTexts,
  SeasonUpdateBody,
} from '@openpug/shared';
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { inTransaction } from '../../jobs';
import { users } from '../accounts/schema';
import { findUserById } from '../accounts/service';
import { recentResults } from '../matches';
import { matches, matchPlayers, matchRounds } from '../matches/schema';
import { recordAudit } from '../moderation';
import { seasons, seasonTexts } from './schema';

export type { RankingModuleState } from './leaderboard';

// --- Player stats ---

/** A player's finished matches, oldest first: their team, the result and their own numbers. */
function finishedMatchLinesOf(ctx: AppContext, userId: string) {
  return ctx.db
    .select({
      matchId: matches.id,
      finishedAt: matches.finishedAt,
      team: matchPlayers.team,
      winner: matches.winner,
      scoreOne: matches.scoreOne,
      scoreTwo: matches.scoreTwo,
      eloBefore: matchPlayers.eloBefore,
      eloAfter: matchPlayers.eloAfter,
      kills: matchPlayers.kills,
      deaths: matchPlayers.deaths,
      assists: matchPlayers.assists,
      damage: matchPlayers.damage,
      headshots: matchPlayers.headshots,
    })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(and(eq(matchPlayers.userId, userId), eq(matches.status, 'finished')))
    .orderBy(asc(matches.finishedAt), asc(matches.id));
}

export async function playerStats(ctx: AppContext, userId: string): Promise<CompetitionStats | null> {
  // The user, their finished matches and their last results are independent reads: one round trip.
  const [user, rows, lastResults] = await Promise.all([
    findUserById(ctx.db, userId),
    finishedMatchLinesOf(ctx, userId),
    recentResults(ctx, userId),
  ]);
  if (!user) return null;
  let wins = 0;
  let kills = 0;
  let deaths = 0;
  let assists = 0;
  let damage = 0;
  let headshots = 0;
  let rounds = 0;
  const eloHistory: EloPoint[] = [];
  for (const r of rows) {
    if (r.winner !== null && r.winner === r.team) wins++;
    kills += r.kills;
    deaths += r.deaths;
    assists += r.assists;
    damage += r.damage;
    headshots += r.headshots;
    rounds += r.scoreOne + r.scoreTwo;
    const at = new Date(r.finishedAt ?? 0).toISOString();
    if (eloHistory.length === 0 && r.eloBefore !== null)
      eloHistory.push({ matchId: r.matchId, at, elo: r.eloBefore });
    if (r.eloAfter !== null) eloHistory.push({ matchId: r.matchId, at, elo: r.eloAfter });
  }
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    userId,
    elo: user.elo,
    matches: rows.length,
    wins,
    losses: rows.length - wins,
    winRate: rows.length ? round2(wins / rows.length) : 0,
    kills,
    deaths,
    assists,
    kd: round2(deaths ? kills / deaths : kills),
    rounds,
    adr: rounds ? Math.round((damage / rounds) * 10) / 10 : 0,
    hsRate: kills ? round2(headshots / kills) : 0,
    lastResults,
    eloHistory,
  };
}

// --- Highlights ---

/**
 * Notable rounds of a player, newest first: ace (5 kills), 4k, and clutches — the round was won by
 * the player's team, the player survived and every teammate died (1vN with N ≥ the player's kills
 * in that round; the stored numbers do not say how many opponents were alive).
 */
export async function highlights(ctx: AppContext, userId: string, limit = 50): Promise<Highlight[]> {
  const rows = await ctx.db
    .select({
      matchId: matchRounds.matchId,
      round: matchRounds.round,
      winner: matchRounds.winner,
      players: matchRounds.players,
      at: matchRounds.createdAt,
      mapName: matches.mapName,
      team: matchPlayers.team,
    })
    .from(matchRounds)
    .innerJoin(matches, eq(matches.id, matchRounds.matchId))
    .innerJoin(
      matchPlayers,
      and(eq(matchPlayers.matchId, matchRounds.matchId), eq(matchPlayers.userId, userId)),
    )
    .where(sql`${matchRounds.players} @> ${JSON.stringify([{ userId }])}::jsonb`)
    .orderBy(desc(matchRounds.createdAt), desc(matchRounds.round));
  const teamsByMatch = new Map<string, Map<string, string | null>>();
  const out: Highlight[] = [];
  for (const r of rows) {
    const me = r.players.find((p) => p.userId === userId);
    if (!me) continue;
    const base = {
      matchId: r.matchId,
      mapName: r.mapName,
      round: r.round,
      kills: me.kills,
      headshots: me.headshots,
      at: new Date(r.at).toISOString(),
    };
    if (me.kills >= 5) out.push({ ...base, kind: 'ace', versus: null });
    else if (me.kills === 4) out.push({ ...base, kind: '4k', versus: null });
    if (r.team && r.winner === r.team && me.deaths === 0 && me.kills > 0) {
      let teams = teamsByMatch.get(r.matchId);
      if (!teams) {
        const ps = await ctx.db
          .select({ userId: matchPlayers.userId, team: matchPlayers.team })
          .from(matchPlayers)
          .where(eq(matchPlayers.matchId, r.matchId));
        teams = new Map(ps.map((p) => [p.userId, p.team]));
        teamsByMatch.set(r.matchId, teams);
      }
      const mates = r.players.filter((p) => p.userId !== userId && teams.get(p.userId) === r.team);
      if (mates.length > 0 && mates.every((p) => p.deaths > 0)) {
        out.push({ ...base, kind: 'clutch', versus: Math.max(1, me.kills) });
      }
    }
    if (out.length >= limit) break;
  }
  return out.slice(0, limit);
}

// --- Seasons ---

const MONTH_MS = 30 * 86_400_000;

/** Creates season1 (now → +3 months) on the first start; later starts keep it. */
export async function seedSeasons(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 3);
  await ctx.db
    .insert(seasons)
    .values({ id: 'season1', name: 'Season 1', startsAt: now, endsAt: end.getTime() || now + 3 * MONTH_MS })
    .onConflictDoNothing();
}

const NO_TEXTS: SeasonTexts = { title: '', description: '', prizes: '' };

async function seasonTextsOf(ctx: AppContext, id: string, locale: Locale): Promise<SeasonTexts> {
  const [row] = await ctx.db
    .select()
    .from(seasonTexts)
    .where(and(eq(seasonTexts.seasonId, id), eq(seasonTexts.locale, locale)));
  return row ? { title: row.title, description: row.description, prizes: row.prizes } : NO_TEXTS;
}

/** A season with its details in `locale` ('' where an admin wrote none). */
export async function findSeason(ctx: AppContext, id: string, locale: Locale): Promise<Season | null> {
  const [row] = await ctx.db.select().from(seasons).where(eq(seasons.id, id));
  if (!row) return null;
  return {
    _id: row.id,
    name: row.name,
    startsAt: new Date(row.startsAt).toISOString(),
    endsAt: new Date(row.endsAt).toISOString(),
    frozen: ctx.clock.now() >= row.endsAt,
    texts: await seasonTextsOf(ctx, id, locale),
  };
}

/**
 * An admin sets a season's dates and one language's details, audited (`season.update`, the
 * season and language as target, dates and texts before and after); null for an unknown season.
 * Moving the dates moves the standings' window with them.
 */
export async function updateSeason(
  ctx: AppContext,
  actorId: string,
  id: string,
  body: SeasonUpdateBody,
): Promise<Season | null> {
  const { locale, startsAt, endsAt, ...texts } = body;
  const before = await findSeason(ctx, id, locale);
  if (!before) return null;
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(seasons)
      .set({ startsAt: Date.parse(startsAt), endsAt: Date.parse(endsAt) })
      .where(eq(seasons.id, id));
    const row = { ...texts, updatedAt: ctx.clock.now(), updatedBy: actorId };
    await tx
      .insert(seasonTexts)
      .values({ seasonId: id, locale, ...row })
      .onConflictDoUpdate({ target: [seasonTexts.seasonId, seasonTexts.locale], set: row });
    await recordAudit(ctx, tx, {
      actorId,
      action: 'season.update',
      targetType: 'page',
      targetId: `${id}:${locale}`,
      before: { startsAt: before.startsAt, endsAt: before.endsAt, ...before.texts },
      after: { startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString(), ...texts },
    });
  });
  return findSeason(ctx, id, locale);
}

/**
 * Standings: Elo gained (sum of after − before) and matches played in matches that finished inside
 * the season window — so they stop changing (freeze) once the season has ended.
 */
export async function standings(ctx: AppContext, id: string, limit = 100): Promise<SeasonStanding[]> {
  const [season] = await ctx.db.select().from(seasons).where(eq(seasons.id, id));
  if (!season) return [];
  const gained = sql<number>`coalesce(sum(${matchPlayers.eloAfter} - ${matchPlayers.eloBefore}), 0)::int`;
  const rows = await ctx.db
    .select({
      userId: matchPlayers.userId,
      eloGained: gained,
      matches: sql<number>`count(*)::int`,
      name: users.name,
      avatar: users.avatar,
      createdAt: users.createdAt,
    })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .innerJoin(users, eq(users.id, matchPlayers.userId))
    .where(
      and(
        eq(matches.status, 'finished'),
        gte(matches.finishedAt, season.startsAt),
        lte(matches.finishedAt, season.endsAt),
      ),
    )
    .groupBy(matchPlayers.userId, users.name, users.avatar, users.createdAt)
    .orderBy(desc(gained), desc(sql`count(*)`), asc(users.createdAt), asc(matchPlayers.userId))
    .limit(limit);
  return rows.map((r, i) => ({
    position: i + 1,
    _id: r.userId,
    name: r.name,
    avatar: r.avatar,
    eloGained: Number(r.eloGained),
    matches: Number(r.matches),
  }));
}
