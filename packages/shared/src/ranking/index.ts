import { z } from 'zod';
import { adminText } from '../about';
import { localeSchema } from '../accounts';
import { listQuerySchema } from '../list';

/**
 * Ranking contract (docs/contract.md §1, §2, §3, §7; server module `ranking`): leaderboard,
 * player stats and highlights, seasons.
 */

// --- Leaderboard -----------------------------------------------------------------------------

export const RANKING_SORT_FIELDS = ['rank', 'elo', 'name', 'wins', 'losses', 'winRate'] as const;
export type RankingSortField = (typeof RANKING_SORT_FIELDS)[number];
/** GET /api/users/ranking: default sort is rank (Elo descending, then oldest account, then id). */
export const rankingQuerySchema = listQuerySchema.extend({
  sort: z.enum(RANKING_SORT_FIELDS, 'ERROR_WITH_FILTER').optional(),
});
export type RankingQuery = z.infer<typeof rankingQuerySchema>;

export const rankingRowSchema = z.object({
  _id: z.string(),
  /** Position in the Elo order (ties: older account first, then id) — stable across pages and sorts. */
  rank: z.number().int().min(1),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  banner: z.string(),
  stats: z.object({ elo: z.number().int() }),
  wins: z.number().int().min(0),
  losses: z.number().int().min(0),
  /** 0..1; 0 without matches. */
  winRate: z.number().min(0).max(1),
});
export type RankingRow = z.infer<typeof rankingRowSchema>;
export const rankingPageSchema = z.object({
  docs: z.array(rankingRowSchema),
  totalDocs: z.number().int().min(0),
  /** Finished matches a player needs to be ranked (listed); the others are unranked. */
  placementMatches: z.number().int().min(0),
});
export type RankingPage = z.infer<typeof rankingPageSchema>;

// --- Player stats and highlights ---------------------------------------------------------------

export const eloPointSchema = z.object({
  matchId: z.string(),
  /** ISO time the match finished. */
  at: z.string(),
  elo: z.number().int(),
});
export type EloPoint = z.infer<typeof eloPointSchema>;

export const competitionStatsSchema = z.object({
  userId: z.string(),
  elo: z.number().int(),
  matches: z.number().int().min(0),
  wins: z.number().int().min(0),
  losses: z.number().int().min(0),
  winRate: z.number().min(0).max(1),
  kills: z.number().int().min(0),
  deaths: z.number().int().min(0),
  assists: z.number().int().min(0),
  /** kills / deaths (kills when there are no deaths). */
  kd: z.number().min(0),
  rounds: z.number().int().min(0),
  /** Average damage per round. */
  adr: z.number().min(0),
  /** headshot kills / kills, 0..1. */
  hsRate: z.number().min(0).max(1),
  /** Newest first. */
  lastResults: z.array(z.enum(['W', 'L'])),
  /** Oldest first: the Elo before the first match, then after each finished match. */
  eloHistory: z.array(eloPointSchema),
});
export type CompetitionStats = z.infer<typeof competitionStatsSchema>;

export const HIGHLIGHT_KINDS = ['ace', '4k', 'clutch'] as const;
export type HighlightKind = (typeof HIGHLIGHT_KINDS)[number];
export const highlightSchema = z.object({
  kind: z.enum(HIGHLIGHT_KINDS),
  matchId: z.string(),
  mapName: z.string().nullable(),
  round: z.number().int(),
  kills: z.number().int(),
  headshots: z.number().int(),
  /** For clutches: the player was the last one alive of their team and won the round (1vN, N ≥ kills). */
  versus: z.number().int().nullable(),
  at: z.string(),
});
export type Highlight = z.infer<typeof highlightSchema>;
export const highlightsSchema = z.object({ docs: z.array(highlightSchema) });

// --- Seasons ----------------------------------------------------------------------------------

export const seasonStandingSchema = z.object({
  position: z.number().int().min(1),
  _id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  eloGained: z.number().int(),
  matches: z.number().int().min(0),
});
export type SeasonStanding = z.infer<typeof seasonStandingSchema>;

export const SEASON_TITLE_MAX = 100;
export const SEASON_TEXT_MAX = 4000;

/**
 * A season's admin-written details in one language; '' where none was written (the page then
 * shows the season's name and the drop catalogue as its prizes).
 */
export const seasonTextsSchema = z.object({
  title: adminText(SEASON_TITLE_MAX),
  description: adminText(SEASON_TEXT_MAX),
  prizes: adminText(SEASON_TEXT_MAX),
});
export type SeasonTexts = z.infer<typeof seasonTextsSchema>;

export const seasonSchema = z.object({
  _id: z.string(),
  name: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** True once the end has passed: the standings no longer change. */
  frozen: z.boolean(),
  /** The details in the language asked for. */
  texts: seasonTextsSchema,
});
export type Season = z.infer<typeof seasonSchema>;

const seasonDate = z.iso.datetime({ offset: true, error: 'INVALID_INPUT' });

/** PUT /api/seasons/:id (admins): the dates, and the details of one language. */
export const seasonUpdateBodySchema = seasonTextsSchema
  .extend({ locale: localeSchema, startsAt: seasonDate, endsAt: seasonDate })
  .refine((b) => Date.parse(b.endsAt) > Date.parse(b.startsAt), 'SEASON_ENDS_BEFORE_START');
export type SeasonUpdateBody = z.infer<typeof seasonUpdateBodySchema>;
