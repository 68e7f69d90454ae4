import { z } from 'zod';
import { listQuerySchema } from '../list';

/**
 * Match room contract (docs/contract.md §2 match page, §7; §3 "Match"). MATCH_STATE and
 * GET /api/match/:id carry `matchStateSchema`; `server.connect` only reaches participants.
 */
/**
 * The match statuses, declared here once: the database column, the metrics, the user status and
 * the server's lifecycle table (apps/server/src/modules/matches/lifecycle.ts) derive theirs from it.
 * Statuses of a match that is not over yet (draft, veto, on the game server):
 */
export const LIVE_MATCH_STATUSES = ['playerveto', 'mapveto', 'active'] as const;
/** Statuses of a match that is over (with a result, or called off). */
export const OVER_MATCH_STATUSES = ['finished', 'cancelled'] as const;
export const matchStatuses = [...LIVE_MATCH_STATUSES, ...OVER_MATCH_STATUSES] as const;
export const matchStatusSchema = z.enum(matchStatuses);
export type MatchStatus = z.infer<typeof matchStatusSchema>;
export type LiveMatchStatus = (typeof LIVE_MATCH_STATUSES)[number];
export type OverMatchStatus = (typeof OVER_MATCH_STATUSES)[number];

/**
 * Why a match was cancelled (MATCH_CANCELLED, MATCH_STATE.cancelReason): no game server took it or
 * its server failed (never went live, went silent), an admin ended it, or a player never came onto
 * the game server and nobody took the substitute offer in time (NO_SHOW); ADMIN_VOIDED: an admin
 * voided the finished match, its Elo reverted. The web has a text each.
 */
export const matchCancelReasons = [
  'SERVER_UNAVAILABLE',
  'ADMIN_CANCELLED',
  'NO_SHOW',
  'ADMIN_VOIDED',
] as const;
export const matchCancelReasonSchema = z.enum(matchCancelReasons);
export type MatchCancelReason = z.infer<typeof matchCancelReasonSchema>;

export const teamKeys = ['teamOne', 'teamTwo'] as const;
export const teamKeySchema = z.enum(teamKeys);
export type TeamKey = z.infer<typeof teamKeySchema>;

export const matchPlayerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  elo: z.number().int(),
  steamId: z.string().optional(),
  /**
   * Share (percent) of the player's last RELIABILITY_MATCHES matches accepted, connected and
   * finished, taken when the match was created (shown in the draft); null without history.
   */
  reliability: z.number().int().min(0).max(100).nullable().optional(),
});
export type MatchPlayer = z.infer<typeof matchPlayerSchema>;

export const mapInfoSchema = z.object({ key: z.string(), name: z.string() });
export type MapInfo = z.infer<typeof mapInfoSchema>;

export const teamSchema = z.object({
  name: z.string(),
  captain: matchPlayerSchema,
  /** Captain first, then picks in pick order. */
  players: z.array(matchPlayerSchema),
});

export const playerStatsSchema = z.object({
  userId: z.string(),
  name: z.string(),
  team: teamKeySchema,
  kills: z.number().int(),
  deaths: z.number().int(),
  assists: z.number().int(),
  damage: z.number().int(),
  headshots: z.number().int(),
  /** Set once the match is finished. */
  eloBefore: z.number().int().nullable(),
  eloAfter: z.number().int().nullable(),
});
export type PlayerStats = z.infer<typeof playerStatsSchema>;

export const scoreSchema = z.object({ teamOne: z.number().int(), teamTwo: z.number().int() });
export type Score = z.infer<typeof scoreSchema>;

export const matchServerSchema = z.object({ connect: z.string().optional(), gotv: z.string() });

/**
 * Who is on the game server while the match waits for its players (active, server ready, not live
 * yet); null otherwise. `deadline`: until when the rostered players must be on the server, or — while
 * `noShows` is not empty — until when a substitute may take their slots.
 */
export const matchConnectSchema = z.object({
  deadline: z.number().nullable(),
  /** User ids of the rostered players the game server reports as connected. */
  onServer: z.array(z.string()),
  /** Rostered players who missed the deadline; their slots are offered to queued players. */
  noShows: z.array(z.string()),
});
export type MatchConnect = z.infer<typeof matchConnectSchema>;

/**
 * While live, with match voice channels on (docs/contract.md §4 "Match voice channels"): each
 * team's TeamSpeak channel and the user ids of the team's players the voice server shows in it
 * (as of the last poll).
 */
export const matchVoiceChannelSchema = z.object({ name: z.string(), members: z.array(z.string()) });
export const matchVoiceSchema = z.object({
  teamOne: matchVoiceChannelSchema.nullable(),
  teamTwo: matchVoiceChannelSchema.nullable(),
});
export type MatchVoice = z.infer<typeof matchVoiceSchema>;

export const matchStateSchema = z.object({
  _id: z.string(),
  status: matchStatusSchema,
  createdAt: z.number(),
  teamOne: teamSchema,
  teamTwo: teamSchema,
  pool: z.array(matchPlayerSchema),
  turn: teamKeySchema.nullable(),
  deadline: z.number().nullable(),
  mapVeto: z.object({
    pool: z.array(mapInfoSchema),
    bans: z.array(z.object({ mapKey: z.string(), team: teamKeySchema })),
  }),
  map: mapInfoSchema.nullable(),
  server: matchServerSchema.nullable(),
  score: scoreSchema,
  stats: z.array(playerStatsSchema),
  winner: z.enum(['teamOne', 'teamTwo', 'draw']).nullable(),
  /** Set once the match is cancelled. */
  cancelReason: matchCancelReasonSchema.nullable(),
  connect: matchConnectSchema.nullable(),
  /**
   * While live: rostered players off the game server for LEAVER_GRACE_MS (leavers) whose slot is
   * not filled; a captain may ask for a substitute for those of their team (`substitute-request`).
   */
  leavers: z.array(z.string()).optional(),
  /** While live: the running substitute offer for leavers (user ids of the slots), or null. */
  substituteOffer: z
    .object({ deadline: z.number(), slots: z.array(z.string()) })
    .nullable()
    .optional(),
  /** While live and the match has voice channels: the team channels and who is in them. */
  voice: matchVoiceSchema.nullable().optional(),
});
export type MatchState = z.infer<typeof matchStateSchema>;

// ---- client → server -------------------------------------------------------------------------
export const matchIdSchema = z.string().min(1, 'MISSING').max(64, 'ID_MALFORMED');
export const matchRoomPayloadSchema = z.object({ matchId: matchIdSchema });
export type MatchRoomPayload = z.infer<typeof matchRoomPayloadSchema>;

export const HELP_MESSAGE_MAX = 500;
export const matchMessageSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('get-state'), data: z.object({ matchId: matchIdSchema }) }),
  z.object({
    event: z.literal('pick-player'),
    data: z.object({
      matchId: matchIdSchema,
      pickedId: z.string().min(1, 'MISSING').max(64, 'ID_MALFORMED'),
    }),
  }),
  z.object({
    event: z.literal('ban-map'),
    data: z.object({ matchId: matchIdSchema, mapKey: z.string().min(1, 'MISSING').max(64, 'INVALID_MAP') }),
  }),
  z.object({
    event: z.literal('help'),
    data: z.object({
      matchId: matchIdSchema,
      msg: z.string().trim().min(1, 'IS_EMPTY').max(HELP_MESSAGE_MAX),
    }),
  }),
]);
export type MatchMessage = z.infer<typeof matchMessageSchema>;

// ---- server → room ---------------------------------------------------------------------------
export type MatchPickPlayerPayload = { matchId: string; team: TeamKey; player: MatchPlayer; auto: boolean };
export type MatchBanMapPayload = { matchId: string; team: TeamKey; mapKey: string; auto: boolean };
export type MatchSetMapPayload = { matchId: string; map: MapInfo };
export type MatchChangeStatusPayload = { matchId: string; status: MatchStatus };
export type MatchSetCountdownPayload = { matchId: string; deadline: number | null; turn: TeamKey | null };
export type MatchServerAvailablePayload = { matchId: string; gotv: string; connect?: string };
export type MatchScoreUpdatePayload = { matchId: string; score: Score; round: number; stats: PlayerStats[] };
export type MatchCancelledPayload = { matchId: string; reason: MatchCancelReason };
/** PRIVATE_MATCH_RESULT, to each player once a match is rated (docs/contract.md §4 step 6). */
export type MatchResultPayload = { victory: boolean; oldElo: number; newElo: number; matchId: string };

/**
 * A slot of a match whose player never came onto the server, offered to queued players outside an
 * accept phase (PRIVATE_SUBSTITUTE_OFFER). The first `substitute-accept` takes it.
 */
export type SubstituteOfferPayload = {
  matchId: string;
  map: MapInfo | null;
  team: TeamKey;
  teamName: string;
  /** Open slots of the match (the first accept takes the first one). */
  slots: number;
  deadline: number;
};
/** The match's offer is over (taken, expired or the match ended): close it (PUBLIC_SUBSTITUTE_CLOSED). */
export type SubstituteClosedPayload = { matchId: string };
export const substituteAcceptSchema = z.object({ matchId: matchIdSchema });
export type SubstituteAccept = z.infer<typeof substituteAcceptSchema>;
/** A captain asks for a substitute for a leaver of their team (`substitute-request`). */
export const substituteRequestSchema = z.object({
  matchId: matchIdSchema,
  userId: z.string().min(1, 'MISSING').max(64, 'ID_MALFORMED'),
});
export type SubstituteRequest = z.infer<typeof substituteRequestSchema>;

declare module '../socket' {
  interface ServerToClientEvents {
    MATCH_STATE: (payload: MatchState) => void;
    MATCH_PICK_PLAYER: (payload: MatchPickPlayerPayload) => void;
    MATCH_BAN_MAP: (payload: MatchBanMapPayload) => void;
    MATCH_SET_MAP: (payload: MatchSetMapPayload) => void;
    MATCH_CHANGE_STATUS: (payload: MatchChangeStatusPayload) => void;
    MATCH_SET_COUNTDOWN: (payload: MatchSetCountdownPayload) => void;
    MATCH_SERVER_AVAILABLE: (payload: MatchServerAvailablePayload) => void;
    MATCH_SCORE_UPDATE: (payload: MatchScoreUpdatePayload) => void;
    MATCH_CANCELLED: (payload: MatchCancelledPayload) => void;
    PRIVATE_MATCH_RESULT: (payload: MatchResultPayload) => void;
    PRIVATE_SUBSTITUTE_OFFER: (payload: SubstituteOfferPayload) => void;
    PUBLIC_SUBSTITUTE_CLOSED: (payload: SubstituteClosedPayload) => void;
  }
}

// ---- REST lists ------------------------------------------------------------------------------
const teamSummarySchema = z.object({
  name: z.string(),
  captain: matchPlayerSchema,
  players: z.array(matchPlayerSchema),
});
/** A row of GET /api/match (landing: live and recent matches). */
export const matchSummarySchema = z.object({
  _id: z.string(),
  status: matchStatusSchema,
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  map: mapInfoSchema.nullable(),
  score: scoreSchema,
  winner: z.enum(['teamOne', 'teamTwo', 'draw']).nullable(),
  teamOne: teamSummarySchema,
  teamTwo: teamSummarySchema,
});
export type MatchSummary = z.infer<typeof matchSummarySchema>;

/** A row of GET /api/match/user/:userId/ — the summary plus that player's line. */
export const userMatchSchema = matchSummarySchema.extend({
  player: z.object({
    team: teamKeySchema.nullable(),
    victory: z.boolean().nullable(),
    kills: z.number().int(),
    deaths: z.number().int(),
    assists: z.number().int(),
    eloBefore: z.number().int().nullable(),
    eloAfter: z.number().int().nullable(),
  }),
});
export type UserMatch = z.infer<typeof userMatchSchema>;

/** `status`: `live` (playerveto|mapveto|active), one status, or all when absent. Newest first. */
export const matchListQuerySchema = listQuerySchema.extend({
  status: z.enum(['live', ...matchStatuses]).optional(),
});
export type MatchListQuery = z.infer<typeof matchListQuerySchema>;
