import { z } from 'zod';
import { matchStatusValues, type UserStatus, userStatusSchema } from '../status';

/**
 * Presence contract (docs/contract.md §4, §7; server module `presence`): status patches from other
 * modules and the live status and name events friends receive (room: `socialRoom`, friends).
 */

/** A partial status as other modules send it (bus 'status.patch'); unknown keys are dropped. */
export const userStatusPatchSchema = userStatusSchema
  .omit({ match: true })
  .partial()
  .extend({
    match: z
      .object({
        active: z.boolean(),
        matchId: z.string().nullable(),
        status: z.enum(matchStatusValues).nullable(),
        map: z.string().nullable(),
        score: z.object({ teamOne: z.number().int(), teamTwo: z.number().int() }),
      })
      .partial()
      .optional(),
  });

export const socialChangedStatusSchema = z.object({ userId: z.string(), status: userStatusSchema });
export type SocialChangedStatus = { userId: string; status: UserStatus };
export const socialChangedNameSchema = z.object({ userId: z.string(), name: z.string().nullable() });
export type SocialChangedName = z.infer<typeof socialChangedNameSchema>;

declare module '../socket' {
  interface ServerToClientEvents {
    socialChangedStatus: (payload: SocialChangedStatus) => void;
    socialChangedName: (payload: SocialChangedName) => void;
  }
}
