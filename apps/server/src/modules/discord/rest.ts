/**
 * Discord direct messages over Discord's HTTP API (discord.js `REST` with the bot token). Every
 * instance sends this way; none needs a gateway session of its own.
 *
 *  1. Create DM: `POST /users/@me/channels {recipient_id}` answers the DM channel object (the
 *     existing one when there is one).
 *     https://discord.com/developers/docs/resources/user#create-dm
 *  2. Create Message: `POST /channels/{channel.id}/messages {content, components}` answers the
 *     message object (its id is kept to edit the accept-phase DM later).
 *     https://discord.com/developers/docs/resources/message#create-message
 *     (Discord asks that the bot has connected to the gateway at least once: the leader does.)
 *  3. Edit Message: `PATCH /channels/{channel.id}/messages/{message.id} {content, components}`
 *     (the bot may edit its own messages; `components: []` removes the buttons).
 *     https://discord.com/developers/docs/resources/message#edit-message
 *
 * Base URL: DISCORD_API_URL (default https://discord.com/api; API version 10 is appended).
 *
 * What a failure means for notify/deliver.ts `withRetries` (the error carries `permanent` and
 * `retryAfterMs`):
 *  - 4xx with a JSON error body (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes):
 *    permanent, never retried: 50007 "Cannot send messages to this user" (the player does not
 *    accept DMs from server members, or blocked the bot; recorded for Settings), 10013 "Unknown
 *    User", 50035 invalid form body, …; 401 (the token is refused: later sends fail at once).
 *  - 429: Discord says when to come back (`retry_after` seconds in the body and the `Retry-After`
 *    header; discord.js reads the header): the retry waits that long. A wait longer than
 *    DM_MAX_RETRY_AFTER_MS is not worth it for a 'game found' message: permanent.
 *    https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit
 *  - 5xx, network errors, time-outs: retried with the doubling back-off of withRetries.
 * discord.js's own retries are switched off (`retries: 0`, `rejectOnRateLimit`), so each attempt
 * is one request and withRetries logs each failed attempt once. One exception: discord.js keeps
 * Discord's global limit of 50 requests a second itself (`globalRequestsPerSecond`, @discordjs/rest
 * 2.6.3 `runRequest`, which asks `rejectOnRateLimit` before it waits for the next second). That
 * wait is no failure: rejected, it used up an attempt of every DM over the 50th in a second, and an
 * accept phase of ten sends twenty requests (channel and message) at once, so a few phases starting
 * together lost DMs. Global waits are waited out (rejected only past DM_MAX_RETRY_AFTER_MS), a
 * global 429 from Discord too; a route's own limit and a route's 429 still reject, for withRetries.
 * https://discord.com/developers/docs/topics/rate-limits#global-rate-limit
 */
import type { AppContext } from '../../context';
import type { DiscordSender } from './bot';
import { clearDmFailure, recordDmFailure } from './service';

/** JSON error code: "Cannot send messages to this user". */
export const CANNOT_MESSAGE_USER = 50007;
/** JSON error code: "Unknown User". */
export const UNKNOWN_USER = 10013;
/** Longer rate-limit waits give up: the accept phase is over by then. */
export const DM_MAX_RETRY_AFTER_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** A refused DM; `permanent` and `retryAfterMs` are what notify/deliver.ts withRetries reads. */
export class DiscordDmError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** Discord's JSON error code, when it sent one. */
    readonly code: number | undefined,
    readonly permanent: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DiscordDmError';
  }
}

/** Sorts what discord.js threw (DiscordAPIError, RateLimitError, HTTPError, network) into a DiscordDmError. */
export function toDmError(err: unknown): DiscordDmError {
  const e = err as {
    name?: unknown;
    status?: unknown;
    code?: unknown;
    retryAfter?: unknown;
    message?: unknown;
  };
  const message = String(e?.message ?? err);
  if (typeof e?.name === 'string' && e.name.startsWith('RateLimitError')) {
    const wait = Math.max(0, Number(e.retryAfter) || 0);
    return new DiscordDmError(
      `Discord rate limit: retry after ${wait} ms`,
      429,
      undefined,
      wait > DM_MAX_RETRY_AFTER_MS,
      wait,
    );
  }
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  if (status !== undefined && status >= 400 && status < 500)
    return new DiscordDmError(
      `Discord answered ${status}${code !== undefined ? ` (${code})` : ''}: ${message}`,
      status,
      code,
      true,
    );
  if (status !== undefined)
    return new DiscordDmError(`Discord answered ${status}: ${message}`, status, code, false);
  return new DiscordDmError(`Discord request failed: ${message}`, undefined, undefined, false);
}

interface Log {
  error(o: object, m: string): void;
}

/** Sends DMs through Discord's REST API; records and clears the player's 50007 state. */
export function restDiscordSender(ctx: AppContext, token: string, log: Log): DiscordSender {
  let client: Promise<import('discord.js').REST> | null = null;
  const rest = () => {
    client ??= import('discord.js').then(({ REST }) =>
      new REST({
        api: ctx.config.DISCORD_API_URL,
        retries: 0,
        rejectOnRateLimit: (limit) => !limit.global || limit.timeToReset > DM_MAX_RETRY_AFTER_MS,
        timeout: REQUEST_TIMEOUT_MS,
      }).setToken(token),
    );
    return client;
  };
  let tokenRefused = false;

  return {
    kind: 'rest',
    async sendDirect(discordId, message, userId) {
      if (tokenRefused) throw new DiscordDmError('Discord refused the bot token (401)', 401, undefined, true);
      const { Routes } = await import('discord.js');
      let sent: { channelId: string; messageId: string };
      try {
        const api = await rest();
        const channel = (await api.post(Routes.userChannels(), { body: { recipient_id: discordId } })) as {
          id: string;
        };
        const posted = (await api.post(Routes.channelMessages(channel.id), {
          body: { ...message, allowed_mentions: { parse: [] } },
        })) as { id: string };
        sent = { channelId: channel.id, messageId: posted.id };
      } catch (err) {
        const failure = toDmError(err);
        if (failure.status === 401) tokenRefused = true;
        if (failure.code === CANNOT_MESSAGE_USER)
          await recordDmFailure(ctx, userId, discordId, failure.code).catch((e) =>
            log.error({ err: e, userId }, 'Discord: recording the refused DM failed'),
          );
        throw failure;
      }
      // Delivered: a refusal recorded earlier is over. Never rethrow here, or the DM would be sent again.
      await clearDmFailure(ctx, userId).catch((e) =>
        log.error({ err: e, userId }, 'Discord: clearing the refused-DM state failed'),
      );
      return sent;
    },
    async editDirect(channelId, messageId, message) {
      if (tokenRefused) throw new DiscordDmError('Discord refused the bot token (401)', 401, undefined, true);
      const { Routes } = await import('discord.js');
      try {
        await (await rest()).patch(Routes.channelMessage(channelId, messageId), {
          body: { ...message, allowed_mentions: { parse: [] } },
        });
      } catch (err) {
        const failure = toDmError(err);
        if (failure.status === 401) tokenRefused = true;
        throw failure;
      }
    },
    async close() {
      const api = await client;
      api?.clearHashSweeper();
      api?.clearHandlerSweeper();
    },
  };
}
