import { z } from 'zod';

/** Steam contract (server module `steam`): the login and linking ticket, the popup's message. */

/** Body of Steam login and Steam linking: `steamId` carries the signed ticket from the popup. */
export const steamTicketBodySchema = z.object({
  steamId: z.string().min(1, 'IS_EMPTY').max(2000, 'BAD_TOKEN'),
});
/** What the Steam popup posts to its opener (targeted at the product's origin). */
export const STEAM_MESSAGE_TYPE = 'openpug:steam';
export const steamPopupMessageSchema = z.object({
  type: z.literal(STEAM_MESSAGE_TYPE),
  /** The signed ticket to send as `steamId`; absent when the login failed. */
  steamId: z.string().optional(),
  error: z.string().optional(),
});
export type SteamPopupMessage = z.infer<typeof steamPopupMessageSchema>;
