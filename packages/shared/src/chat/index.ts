/**
 * Chat on Matrix (docs/contract.md §3, §4, §7): the credentials returned at login and the room naming rules
 * shared by the server (provisioning) and the web client (matrix-js-sdk).
 */
import { z } from 'zod';
import { isId } from '../ids';

/** `matrix` in the login / auto-login / Steam-login answers. */
export const matrixSessionSchema = z.object({
  userId: z.string(),
  accessToken: z.string(),
  deviceId: z.string(),
  homeserverUrl: z.string(),
});
export type MatrixSession = z.infer<typeof matrixSessionSchema>;

/**
 * GET /api/chat/session: fresh chat credentials for a signed-in tab whose chat token was revoked
 * (its own password change); null while the chat is unavailable to the player.
 */
export const chatSessionResponseSchema = z.object({ matrix: matrixSessionSchema.nullable() });
export type ChatSessionResponse = z.infer<typeof chatSessionResponseSchema>;

/** Every product user's Matrix id is `@<product user id>:<server name>`. */
export const matrixUserId = (productUserId: string, serverName: string) => `@${productUserId}:${serverName}`;

/** The product user id of a Matrix id made by matrixUserId (null for anything else). */
export function productUserIdOf(matrixId: string): string | null {
  const m = /^@([0-9a-f-]{36}):/.exec(matrixId);
  return m ? m[1] : null;
}

/** Server name part of a Matrix id (`@u:example.org:8448` → `example.org:8448`). */
export const serverNameOf = (matrixId: string) => matrixId.slice(matrixId.indexOf(':') + 1);

/** Local part of the global room's alias: `#global:<server name>`. */
export const GLOBAL_ROOM_ALIAS_LOCALPART = 'global';
export const globalRoomAlias = (serverName: string) => `#${GLOBAL_ROOM_ALIAS_LOCALPART}:${serverName}`;

/**
 * Direct-chat alias (docs/contract.md §3): the two product user ids sorted and joined with `_`, on the chat
 * server name. The client joins it, and when that fails creates a private direct room with this
 * alias (room_alias_name = the local part) and invites the friend.
 */
export function directRoomAliasLocalpart(a: string, b: string): string {
  return [a, b].sort().join('_');
}
export const directRoomAlias = (a: string, b: string, serverName: string) =>
  `#${directRoomAliasLocalpart(a, b)}:${serverName}`;

/**
 * The two product user ids named by an alias local part of the direct-chat shape (`<id>_<id>`,
 * in any order and letter case, ids returned lower-case), else null. Such an alias may only be
 * created by one of the two users (docs/contract.md §3): otherwise a third user could claim it first and
 * read the "direct" chat or block it. The chat servers enforce this (embedded homeserver, and
 * scripts/synapse/openpug_synapse.py mirrors it for Synapse) and the web client checks the
 * room's creator after joining by alias.
 */
export function parseDirectRoomAliasLocalpart(localpart: string): [string, string] | null {
  const ids = localpart.split('_');
  return ids.length === 2 && ids.every(isId) ? [ids[0].toLowerCase(), ids[1].toLowerCase()] : null;
}

/** Match rooms: one per match, players only (spectators are not members). */
export const matchRoomAliasLocalpart = (matchId: string) => `match_${matchId}`;

/**
 * A match room's name on the chat server, as the match page titles its chat ("Team A vs Team B");
 * one name for every member, so in no one language of the interface.
 */
export const matchRoomName = (teamOne: string, teamTwo: string) => `${teamOne} vs ${teamTwo}`;

/** GET /api/users/matrixavatar/:sender */
export const matrixAvatarParamsSchema = z.object({
  sender: z.string().min(1, 'MISSING').max(255, 'INVALID_INPUT'),
});

/**
 * Media types the chat accepts as uploads (docs/contract.md §5, §7): what the composer sends —
 * pictures (pasted or picked), voice notes (audio/mpeg, voice.ts), audio and video clips, and
 * plain files (text, PDF, ZIP; `application/octet-stream` when the browser knows no type). Types
 * a browser would render as a page or run (HTML, SVG, XML, JavaScript) are refused.
 */
export const CHAT_UPLOAD_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/ogg',
  'audio/webm',
  'audio/mp4',
  'audio/aac',
  'audio/wav',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'text/plain',
  'application/pdf',
  'application/zip',
  'application/octet-stream',
];

/** What an admin (any product room) or a match's captain (its room) may do in the chat. */
export const chatModerationActions = ['redact', 'mute', 'unmute', 'kick', 'ban', 'unban'] as const;
export type ChatModerationAction = (typeof chatModerationActions)[number];

/**
 * POST /api/chat/moderation: `redact` names the message (`eventId`), every other action the
 * player (`userId`, a product user id). `reason` goes into the Matrix event.
 */
export const chatModerationSchema = z
  .object({
    roomId: z.string().regex(/^![^\s]{1,254}$/, 'INVALID_INPUT'),
    action: z.enum(chatModerationActions),
    userId: z.string().refine(isId, 'ID_MALFORMED').optional(),
    eventId: z
      .string()
      .regex(/^\$[^\s]{1,254}$/, 'INVALID_INPUT')
      .optional(),
    reason: z.string().trim().max(500, 'INVALID_INPUT').optional(),
  })
  .refine((v) => (v.action === 'redact' ? v.eventId !== undefined : v.userId !== undefined), {
    message: 'MISSING',
  });
export type ChatModeration = z.infer<typeof chatModerationSchema>;
