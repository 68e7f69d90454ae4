import { z } from 'zod';
import { LIVE_MATCH_STATUSES } from './matches';

/**
 * The live user status object of docs/contract.md §3 ("User status object"). The presence module owns it
 * and pushes it to friends; the queue, match and voice modules patch their flags.
 */
/** The match statuses a user status can carry: those of a match not over yet (./match). */
export const matchStatusValues = LIVE_MATCH_STATUSES;

export const userStatusSchema = z.object({
  online: z.boolean(),
  inArena: z.boolean(),
  inQueue: z.boolean(),
  teamSpeak: z.boolean(),
  /** Epoch ms of the last moment the user was online; null if never. */
  lastSeen: z.number().nullable(),
  match: z.object({
    active: z.boolean(),
    matchId: z.string().nullable(),
    status: z.enum(matchStatusValues).nullable(),
    map: z.string().nullable(),
    score: z.object({ teamOne: z.number().int(), teamTwo: z.number().int() }),
  }),
  /** Whether the user plays for team one (orders the score "own : opponent"). */
  teamOne: z.boolean(),
});
export type UserStatus = z.infer<typeof userStatusSchema>;
export type UserStatusPatch = Partial<Omit<UserStatus, 'match'>> & { match?: Partial<UserStatus['match']> };

export const offlineStatus = (): UserStatus => ({
  online: false,
  inArena: false,
  inQueue: false,
  teamSpeak: false,
  lastSeen: null,
  match: { active: false, matchId: null, status: null, map: null, score: { teamOne: 0, teamTwo: 0 } },
  teamOne: false,
});
