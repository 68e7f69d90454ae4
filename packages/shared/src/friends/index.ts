import { z } from 'zod';
import { type SocialUser, socialUserSchema } from '../accounts/directory';
import { idSchema } from '../ids';

/**
 * Friends contract (docs/contract.md §3, §4, §7; server module `friends`): friends, friend
 * requests, the `join-social` / `leave-social` channel and the friend events.
 */

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

/**
 * Socket `join-social` / `leave-social`: the friend's id (a bare string or `{userId}`). The
 * parameter's type is what clients are told to send; at run time anything arrives and is checked.
 */
export const socialChannelPayloadSchema = z.preprocess(
  (v: string | { userId: string }) =>
    v && typeof v === 'object' && 'userId' in v ? (v as { userId: unknown }).userId : v,
  idSchema,
);

export const friendRemovedSchema = z.object({ _id: z.string() });
export type FriendRemoved = z.infer<typeof friendRemovedSchema>;
export const requestRemovedSchema = z.object({ _id: z.string() });
export type RequestRemoved = z.infer<typeof requestRemovedSchema>;

/** Socket room a user's friends join to follow their status and name. */
export const socialRoom = (userId: string) => `social:${userId}`;

declare module '../socket' {
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
  }
}
