import { z } from 'zod';
import { listQuerySchema } from '../list';
import { userStatusSchema } from '../status';
import { publicUserSchema } from './index';

/**
 * Users as other players see them (docs/contract.md §3, §7; server `accounts/directory.ts`): the User as lists, cards and
 * friend items show it, the player directory and the public user card.
 */

/**
 * The User of docs/contract.md §3 as lists, cards and friend items show it. `stats.elo` is 200 when the user
 * has none; `rank` = 1 + number of ranked users ranked before (null while unranked); `status` is the live status object.
 */
export const socialUserSchema = publicUserSchema.extend({
  matrixId: z.string().nullable(),
  /** null while unranked (placement matches not yet played). */
  rank: z.number().int().min(1).nullable(),
  status: userStatusSchema,
});
export type SocialUser = z.infer<typeof socialUserSchema>;
/** GET /api/users: the player directory (list query of docs/contract.md §7). */
export const USER_SORT_FIELDS = ['name', 'elo', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const usersQuerySchema = listQuerySchema.extend({
  sort: z.enum(USER_SORT_FIELDS, 'ERROR_WITH_FILTER').optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const directoryUserSchema = socialUserSchema.extend({
  createdAt: z.string(),
  /** Only for admins. */
  email: z.string().nullable().optional(),
  role: z.enum(['ADMIN', 'USER']).optional(),
  verified: z.boolean().optional(),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;
export const usersPageSchema = z.object({
  docs: z.array(directoryUserSchema),
  totalDocs: z.number().int().min(0),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

/** GET /api/users/:id: the public user card. */
export const userCardSchema = socialUserSchema.extend({
  banner: z.string(),
  /** Last five finished matches, newest first ('W' win, 'L' loss). */
  recentResults: z.array(z.enum(['W', 'L'])).optional(),
  /**
   * Share (percent) of the last RELIABILITY_MATCHES matches the player accepted, connected to and
   * finished (a missed accept phase counts as one); null without any yet.
   */
  reliability: z.number().int().min(0).max(100).nullable().optional(),
});
export type UserCard = z.infer<typeof userCardSchema>;
