/**
 * Mobile contract (issue 8; server module `mobile`): one-time mobile login links (the QR code),
 * Web Push subscriptions and the cross-device queue sync.
 */
import { z } from 'zod';

/** Mobile one-time login link (what the QR code encodes). */
export const mobileLinkResponseSchema = z.object({ url: z.string(), expiresAt: z.number() });
export type MobileLink = z.infer<typeof mobileLinkResponseSchema>;
export const mobileExchangeSchema = z.object({
  u: z.string('MISSING').min(1, 'MISSING').max(100, 'INVALID_INPUT'),
  t: z.string('MISSING').min(10, 'INVALID_INPUT').max(200, 'INVALID_INPUT'),
});

/** Web Push. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url('INVALID_INPUT').max(2000, 'INVALID_INPUT'),
  keys: z.object({
    p256dh: z.string('MISSING').min(10, 'INVALID_INPUT').max(200, 'INVALID_INPUT'),
    auth: z.string('MISSING').min(8, 'INVALID_INPUT').max(100, 'INVALID_INPUT'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;
export const pushUnsubscribeSchema = z.object({ endpoint: z.string('MISSING').max(2000, 'INVALID_INPUT') });
export const vapidKeyResponseSchema = z.object({ publicKey: z.string() });

/** Payload of a 'game found' push (the service worker shows it). */
export interface GameFoundPush {
  type: 'game-found';
  title: string;
  body: string;
  url: string;
  deadline: number;
}
