import { z } from 'zod';
import { adminText } from './about';
import { localeSchema } from './accounts';
import { listQuerySchema } from './list';

/**
 * Competition contract (docs/contract.md §1, §2, §3, §7): leaderboard, player stats and highlights, seasons,
 * drops (catalogue, awards, engine settings), banners and sounds, admin role changes.
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

// --- Drops ------------------------------------------------------------------------------------

export const RARITIES = ['common', 'uncommon', 'rare', 'legendary'] as const;
export type Rarity = (typeof RARITIES)[number];

/** Banners drawn by the web (ezpug is everybody's default); drops can unlock the others. */
export const BANNERS = ['ezpug', 'sunset', 'circuit', 'aurora', 'inferno'] as const;
/** Notification sounds; retro.mp3 is everybody's default, drops can unlock the others. */
export const SOUNDS = ['retro.mp3', 'chime.mp3', 'blip.mp3'] as const;
/** Built-in drop artwork keys (the web draws them); an https URL is also accepted. */
export const DROP_IMAGES = ['crate', 'knife', 'gloves', 'sticker', 'key', 'trophy'] as const;

const imageSchema = z
  .string()
  .trim()
  .min(1, 'IS_EMPTY')
  .max(500, 'INVALID_INPUT')
  .refine(
    (v) => (DROP_IMAGES as readonly string[]).includes(v) || /^https:\/\/\S+$/.test(v),
    'INVALID_INPUT',
  );

/** The most times one catalogue item may be awarded. */
export const MAX_DROP_AMOUNT = 100_000;

/** POST /api/drops/ body (admin). */
export const createDropSchema = z.object({
  name: z.string().trim().min(1, 'IS_EMPTY').max(100, 'INVALID_INPUT'),
  image: imageSchema,
  rarity: z.enum(RARITIES, 'INVALID_INPUT'),
  /** How many times the engine may award it. */
  amount: z.coerce
    .number()
    .int('INVALID_INPUT')
    .min(1, 'INVALID_INPUT')
    .max(MAX_DROP_AMOUNT, 'INVALID_INPUT'),
  unlocksBanner: z.enum(BANNERS, 'INVALID_INPUT').nullable().optional(),
  unlocksSound: z.enum(SOUNDS, 'INVALID_INPUT').nullable().optional(),
});
export type CreateDrop = z.infer<typeof createDropSchema>;
export type CreateDropInput = z.input<typeof createDropSchema>;

/** A catalogue item with its award count. */
export const dropItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  rarity: z.enum(RARITIES),
  amount: z.number().int(),
  awarded: z.number().int().min(0),
  unlocksBanner: z.string().nullable(),
  unlocksSound: z.string().nullable(),
  createdAt: z.string(),
});
export type DropItem = z.infer<typeof dropItemSchema>;

/** An awarded drop (docs/contract.md §3 Drop: `_id`, `redeemed` — the only field an admin changes). */
export const dropSchema = z.object({
  _id: z.string(),
  dropId: z.string(),
  name: z.string(),
  image: z.string(),
  rarity: z.enum(RARITIES),
  unlocksBanner: z.string().nullable(),
  unlocksSound: z.string().nullable(),
  owner: z.object({ _id: z.string(), name: z.string().nullable() }),
  matchId: z.string().nullable(),
  createdAt: z.string(),
  seen: z.boolean(),
  /** Only for the owner and admins. */
  redeemed: z.boolean().optional(),
});
export type Drop = z.infer<typeof dropSchema>;

export const dropsQuerySchema = listQuerySchema.extend({
  sort: z.enum(['createdAt', 'name', 'rarity'], 'ERROR_WITH_FILTER').optional(),
});
export const dropItemsPageSchema = z.object({
  docs: z.array(dropItemSchema),
  totalDocs: z.number().int().min(0),
});
export const dropsPageSchema = z.object({ docs: z.array(dropSchema), totalDocs: z.number().int().min(0) });
export type DropsPage = z.infer<typeof dropsPageSchema>;
export type DropItemsPage = z.infer<typeof dropItemsPageSchema>;

/** PATCH /api/drops/:id body: `redeemed` is the only field; anything else is refused. */
export const patchDropSchema = z.strictObject({ redeemed: z.boolean('INVALID_INPUT') }, 'INVALID_INPUT');

export const dropEngineSettingsSchema = z.object({
  enabled: z.boolean('INVALID_INPUT'),
  /** Time between two rolls. */
  intervalMs: z.coerce
    .number()
    .int('INVALID_INPUT')
    .min(1_000, 'INVALID_INPUT')
    .max(7 * 86_400_000, 'INVALID_INPUT'),
});
export type DropEngineSettings = z.infer<typeof dropEngineSettingsSchema>;
export const dropEngineStateSchema = dropEngineSettingsSchema.extend({
  /** Chance of the next roll, 0..1 (grows while nothing drops). */
  nextChance: z.number().min(0).max(1),
  /** ISO time of the next roll, null when off. */
  nextRollAt: z.string().nullable(),
});
export type DropEngineState = z.infer<typeof dropEngineStateSchema>;

/** What the signed-in player has unlocked (Settings offers only these). */
export const unlocksSchema = z.object({ banners: z.array(z.string()), sounds: z.array(z.string()) });
export type Unlocks = z.infer<typeof unlocksSchema>;

export const publicDropSchema = z.object({ username: z.string(), dropName: z.string() });
export type PublicDrop = z.infer<typeof publicDropSchema>;

// --- Admin users --------------------------------------------------------------------------------

export const roleChangeSchema = z.object({ role: z.enum(['ADMIN', 'USER'], 'INVALID_INPUT') });
export type RoleChange = z.infer<typeof roleChangeSchema>;

/** Success message keys of the competition calls (`msg`). */
export const COMPETITION_SUCCESS = {
  SAVED_SUCCESSFULLY: 'SAVED_SUCCESSFULLY',
  DELETED_SUCCESSFULLY: 'DELETED_SUCCESSFULLY',
} as const;

declare module './socket' {
  interface ServerToClientEvents {
    /** To everyone: a player received a drop (the web shows a 6.5 s toast). */
    PUBLIC_DROP: (payload: PublicDrop) => void;
  }
}
