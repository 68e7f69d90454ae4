/**
 * MatchZy (Get5-compatible) event payloads we consume: going_live, round_end (team scores and
 * per-player cumulative stats), map_result and series_end. Other events are accepted and ignored.
 * `team1` is our team one, `team2` team two (that is how rosters are handed to the server).
 *
 * Read against MatchZy's source (shobhit-pathak/MatchZy ef289d5, 0.8.15), the `winner` objects do
 * not say what their names suggest: `winner.side` is the CS team number ("2" T, "3" CT), and
 * `winner.team` of round_end and map_result is the team LEADING the map (`t1score > t2score ?
 * "team1" : "team2"`, Utility.cs:1059 and :876) — "team2" on a level score. The round's winner
 * comes from the score change, the map's from its final score; series_end says "none" for a draw
 * (MatchManagement.cs:591). map_result's players list is always empty (Utility.cs:877-878).
 */
import { z } from 'zod';

const id = z.union([z.string(), z.number()]).transform(String);
const int = z.coerce.number().int().min(0);

export const matchzyStatsSchema = z.object({
  kills: int.default(0),
  deaths: int.default(0),
  assists: int.default(0),
  damage: int.default(0),
  headshot_kills: int.default(0),
});

export const matchzyPlayerSchema = z.object({
  steamid: id,
  name: z.string().optional(),
  stats: matchzyStatsSchema.optional(),
});

export const matchzyTeamSchema = z.object({
  name: z.string().optional(),
  score: int,
  players: z.array(matchzyPlayerSchema).optional(),
});

export const matchzyWinnerSchema = z.object({
  team: z.enum(['team1', 'team2', 'none']).optional(),
  side: z.string().optional(),
});

export const matchzyEnvelopeSchema = z.looseObject({ event: z.string().min(1), matchid: id });

export const goingLiveSchema = z.looseObject({
  event: z.literal('going_live'),
  matchid: id,
  map_number: int.default(0),
});
export const roundEndSchema = z.looseObject({
  event: z.literal('round_end'),
  matchid: id,
  map_number: int.default(0),
  /** t1score + t2score after the round (Utility.cs:1065, 1026): a drawn round repeats the number. */
  round_number: z.coerce.number().int().min(1),
  /** CS RoundEndReason (Events.cs:151, Utility.cs:1066): 10 draw, 17 / 18 a side surrendered. */
  reason: z.coerce.number().int().optional(),
  winner: matchzyWinnerSchema.optional(),
  team1: matchzyTeamSchema,
  team2: matchzyTeamSchema,
});
export const mapResultSchema = z.looseObject({
  event: z.literal('map_result'),
  matchid: id,
  map_number: int.default(0),
  team1: matchzyTeamSchema.optional(),
  team2: matchzyTeamSchema.optional(),
  winner: matchzyWinnerSchema.optional(),
});
export const seriesEndSchema = z.looseObject({
  event: z.literal('series_end'),
  matchid: id,
  team1_series_score: int.optional(),
  team2_series_score: int.optional(),
  winner: matchzyWinnerSchema.optional(),
});

export const matchzyEventSchema = z.discriminatedUnion('event', [
  goingLiveSchema,
  roundEndSchema,
  mapResultSchema,
  seriesEndSchema,
]);
export type MatchzyEvent = z.input<typeof matchzyEventSchema>;
export type MatchzyRoundEnd = z.input<typeof roundEndSchema>;
export const HANDLED_EVENTS = new Set(['going_live', 'round_end', 'map_result', 'series_end']);

/**
 * The match configuration MatchZy loads with `matchzy_loadmatch_url` (Get5's format): a numeric
 * `matchid` (MatchZy reads it as an integer), both rosters as {SteamID64: name}, the one map of
 * the veto, knife for sides, and the cvars it applies before warm-up (there: where to post events).
 */
export const matchzyMatchConfigSchema = z.object({
  matchid: z.number().int(),
  num_maps: z.literal(1),
  maplist: z.array(z.string()).length(1),
  map_sides: z.array(z.enum(['team1_ct', 'team1_t', 'team2_ct', 'team2_t', 'knife'])),
  skip_veto: z.boolean(),
  clinch_series: z.boolean(),
  wingman: z.boolean(),
  players_per_team: z.number().int(),
  min_players_to_ready: z.number().int(),
  team1: z.object({ name: z.string(), players: z.record(z.string(), z.string()) }),
  team2: z.object({ name: z.string(), players: z.record(z.string(), z.string()) }),
  spectators: z.object({ players: z.record(z.string(), z.string()) }),
  cvars: z.record(z.string(), z.string()),
});
export type MatchzyMatchConfig = z.infer<typeof matchzyMatchConfigSchema>;

/**
 * `get5_status`'s answer (G5API.cs:95-170): `gamestate` is "none" while no match is set up, and
 * then `matchid` is null (a `long?` left unset, G5API.cs:25 and :117-122; .NET writes nulls).
 */
export const get5StatusSchema = z.looseObject({
  gamestate: z.string(),
  matchid: id
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type Get5Status = z.infer<typeof get5StatusSchema>;
