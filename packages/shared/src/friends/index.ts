import { z } from 'zod';
import { publicUserSchema } from './accounts';
import { listQuerySchema } from './list';
import { matchStatusValues, type UserStatus, userStatusSchema } from './status';

/**
 * Social contract (docs/contract.md §3, §4, §7): friends, friend requests, the player directory, the user
 * card and the live status events. Server and web both import these schemas and types.
 */

/** Ids are UUID strings (any version); anything else is ID_MALFORMED. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const idSchema = z.string().regex(ID_PATTERN, 'ID_MALFORMED');
export const isId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);

/** Success message keys of docs/contract.md §8 for the friend calls: answers carry `msg: KEY`. */
export const SUCCESS_TEXTS = {
  en: {
    REQUEST_SENT: 'Friend request created successfully',
    REMOVED_SUCCESSFULLY: 'Removed friend successfully',
    CANCELLED_SUCCESSFULLY: 'Friend request cancelled successfully',
    DECLINED_SUCCESSFULLY: 'Friend request declined',
    ACCEPTED_SUCCESSFULLY: 'Friend request accepted',
  },
  de: {
    REQUEST_SENT: 'Freundschaftsanfrage erfolgreich gesendet',
    REMOVED_SUCCESSFULLY: 'Freund erfolgreich entfernt',
    CANCELLED_SUCCESSFULLY: 'Freundschaftsanfrage erfolgreich zurückgezogen',
    DECLINED_SUCCESSFULLY: 'Freundschaftsanfrage abgelehnt',
    ACCEPTED_SUCCESSFULLY: 'Freundschaftsanfrage angenommen',
  },
} as const;
export type SuccessKey = keyof (typeof SUCCESS_TEXTS)['en'];

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
/** A friend is a SocialUser; live events update `status` and `name` keyed by `_id`. */
export const friendSchema = socialUserSchema;
export type Friend = SocialUser;

export const friendsResponseSchema = z.object({ friends: z.array(friendSchema) });
export type FriendsResponse = z.infer<typeof friendsResponseSchema>;

export const requestPartySchema = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});
/** Friend request of docs/contract.md §3: requester {_id,name,avatar,steamUrl}, recipient {_id,name,avatar}. */
export const friendRequestSchema = z.object({
  _id: z.string(),
  requester: requestPartySchema.extend({ steamUrl: z.string().nullable() }),
  recipient: requestPartySchema,
  accepted: z.boolean(),
  createdAt: z.string(),
});
export type FriendRequest = z.infer<typeof friendRequestSchema>;

export const friendRequestsResponseSchema = z.object({
  receivedFriendRequests: z.array(friendRequestSchema),
  sentFriendRequests: z.array(friendRequestSchema),
});
export type FriendRequestsResponse = z.infer<typeof friendRequestsResponseSchema>;

/** POST /api/friends body. A malformed recipient is 400 ID_MALFORMED (checked by the route). */
export const createFriendRequestSchema = z.object({ recipient: z.string() });
export type CreateFriendRequest = z.infer<typeof createFriendRequestSchema>;
export const createFriendRequestResponseSchema = friendRequestSchema.extend({
  msg: z.literal('REQUEST_SENT'),
});

/** PATCH /api/friends/:id body: accepted true accepts, false declines. */
export const answerFriendRequestSchema = z.object({ accepted: z.boolean() });
export type AnswerFriendRequest = z.infer<typeof answerFriendRequestSchema>;
export const answerFriendRequestResponseSchema = z.object({
  request: friendRequestSchema,
  /** The new friend (the requester, as the recipient sees them) when accepted; else null. */
  friend: friendSchema.nullable(),
  msg: z.enum(['ACCEPTED_SUCCESSFULLY', 'DECLINED_SUCCESSFULLY']),
});
export type AnswerFriendRequestResponse = z.infer<typeof answerFriendRequestResponseSchema>;

export const deleteFriendRequestResponseSchema = z.object({
  _id: z.string(),
  msg: z.enum(['CANCELLED_SUCCESSFULLY', 'DECLINED_SUCCESSFULLY']),
});
export const removeFriendResponseSchema = z.object({
  _id: z.string(),
  msg: z.literal('REMOVED_SUCCESSFULLY'),
});

/** Path params: validated as strings, then checked for the id format (400 ID_MALFORMED). */
export const idParamsSchema = z.object({ id: z.string() });
export const userIdParamsSchema = z.object({ userId: z.string() });

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

/**
 * Socket `join-social` / `leave-social`: the friend's id (a bare string or `{userId}`). The
 * parameter's type is what clients are told to send; at run time anything arrives and is checked.
 */
export const socialChannelPayloadSchema = z.preprocess(
  (v: string | { userId: string }) =>
    v && typeof v === 'object' && 'userId' in v ? (v as { userId: unknown }).userId : v,
  idSchema,
);

export const socialChangedStatusSchema = z.object({ userId: z.string(), status: userStatusSchema });
export type SocialChangedStatus = { userId: string; status: UserStatus };
export const socialChangedNameSchema = z.object({ userId: z.string(), name: z.string().nullable() });
export type SocialChangedName = z.infer<typeof socialChangedNameSchema>;
export const friendRemovedSchema = z.object({ _id: z.string() });
export type FriendRemoved = z.infer<typeof friendRemovedSchema>;
export const requestRemovedSchema = z.object({ _id: z.string() });
export type RequestRemoved = z.infer<typeof requestRemovedSchema>;

/** Socket room a user's friends join to follow their status and name. */
export const socialRoom = (userId: string) => `social:${userId}`;

declare module './socket' {
  interface ServerToClientEvents {
    /** To the recipient: a new request arrived. */
    privateNewReceivedFriendRequest: (request: FriendRequest) => void;
    /** To the requester (all tabs): the request they sent. */
    privateNewRequestedFriendRequest: (request: FriendRequest) => void;
    /** To the recipient: a received request is gone (cancelled, declined or accepted). `_id` = request id. */
    privateDeleteReceivedFriendRequest: (payload: RequestRemoved) => void;
    /** To the requester: a sent request is gone (cancelled, declined or accepted). `_id` = request id. */
    privateDeleteRequestedFriendRequest: (payload: RequestRemoved) => void;
    privateNewFriend: (friend: Friend) => void;
    /** `_id` = the removed friend's user id. */
    privateDeleteFriend: (payload: FriendRemoved) => void;
    socialChangedStatus: (payload: SocialChangedStatus) => void;
    socialChangedName: (payload: SocialChangedName) => void;
  }
}
