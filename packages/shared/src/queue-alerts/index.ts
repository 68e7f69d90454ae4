/**
 * "Notify me at N/10" (issue 18, docs/contract.md §4 "Queue alerts"): a player's threshold, the
 * channels to be told on, quiet hours in their time zone, and what the server sends when the
 * public queue count reaches the threshold.
 */
import { z } from 'zod';
import { PLAYERS_PER_MATCH } from '../constants';
import { isTimeZone } from '../insights';

export const QUEUE_ALERT_CHANNELS = ['desktop', 'push', 'whatsapp', 'discord'] as const;
export type QueueAlertChannel = (typeof QUEUE_ALERT_CHANNELS)[number];

/** The lowest and highest threshold: at 10/10 the queue pops, so 9 is the last useful one. */
export const QUEUE_ALERT_MIN = 1;
export const QUEUE_ALERT_MAX = PLAYERS_PER_MATCH - 1;

/** The link a queue alert opens: it joins the queue once the page is signed in (same rules as Play). */
export const QUEUE_JOIN_PARAM = 'queue';
export const QUEUE_JOIN_VALUE = 'join';
export const queueJoinPath = (base: '/home' | '/m') => `${base}?${QUEUE_JOIN_PARAM}=${QUEUE_JOIN_VALUE}`;

const hour = z
  .number('QUIET_HOURS_INVALID')
  .int('QUIET_HOURS_INVALID')
  .min(0, 'QUIET_HOURS_INVALID')
  .max(23, 'QUIET_HOURS_INVALID');

/** Quiet hours from `from`:00 to `to`:00 in the player's time zone; `from > to` spans midnight. */
export const quietHoursSchema = z
  .object({ from: hour, to: hour })
  .refine((q) => q.from !== q.to, { message: 'QUIET_HOURS_INVALID' });
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const timeZoneSchema = z
  .string('TIME_ZONE_INVALID')
  .min(1, 'TIME_ZONE_INVALID')
  .max(64, 'TIME_ZONE_INVALID')
  .refine(isTimeZone, { message: 'TIME_ZONE_INVALID' });

/** PUT /api/profile/queue-alert. `threshold: null` switches the alert off. */
export const queueAlertBodySchema = z.object({
  threshold: z
    .number('QUEUE_ALERT_THRESHOLD_INVALID')
    .int('QUEUE_ALERT_THRESHOLD_INVALID')
    .min(QUEUE_ALERT_MIN, 'QUEUE_ALERT_THRESHOLD_INVALID')
    .max(QUEUE_ALERT_MAX, 'QUEUE_ALERT_THRESHOLD_INVALID')
    .nullable(),
  channels: z
    .array(z.enum(QUEUE_ALERT_CHANNELS, 'INVALID_INPUT'), 'INVALID_INPUT')
    .max(QUEUE_ALERT_CHANNELS.length, 'INVALID_INPUT')
    .transform((cs) => QUEUE_ALERT_CHANNELS.filter((c) => cs.includes(c))),
  quietHours: quietHoursSchema.nullable(),
  timeZone: timeZoneSchema,
});
export type QueueAlertBody = z.infer<typeof queueAlertBodySchema>;

/** GET/PUT answer: the setting and which channels the player can be reached on now. */
export const queueAlertSchema = z.object({
  threshold: z.number().int().nullable(),
  channels: z.array(z.enum(QUEUE_ALERT_CHANNELS)),
  quietHours: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
  timeZone: z.string(),
  available: z.object({
    desktop: z.boolean(),
    push: z.boolean(),
    whatsapp: z.boolean(),
    discord: z.boolean(),
  }),
});
export type QueueAlert = z.infer<typeof queueAlertSchema>;

/** PRIVATE_QUEUE_ALERT: the queue reached the receiver's threshold (desktop channel). */
export interface QueueAlertPayload {
  count: number;
  threshold: number;
}

/** Payload of a queue-alert push (the service worker shows it; a tap opens `url`). */
export interface QueueAlertPush {
  type: 'queue-alert';
  title: string;
  body: string;
  url: string;
  count: number;
}

declare module '../socket' {
  interface ServerToClientEvents {
    PRIVATE_QUEUE_ALERT: (payload: QueueAlertPayload) => void;
  }
}
