/**
 * WhatsApp senders. With WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID the WhatsApp Business Cloud
 * API is used (`POST {WHATSAPP_API_URL}/{phoneNumberId}/messages`, bearer token); otherwise
 * messages land in the dev outbox (channel whatsapp) as their rendered text.
 *
 * Meta delivers a business-initiated message outside the 24-hour customer-service window only as
 * an approved template message, so every notification is a template
 * (developers.facebook.com/documentation/business-messaging/whatsapp — "Template messages": `type:
 * template`, `template: {name, language: {code}, components: [{type: body, parameters: [{type:
 * text, text}]}]}`). The link code is an authentication template with a copy-code button: the code
 * goes in the body parameter and again in the button component (`{type: button, sub_type: url,
 * index: '0', parameters: [{type: text, text: code}]}`, "Copy code authentication templates" —
 * the button created as OTP/copy_code is a URL button once created). A free-form `text` message
 * (kind 'text') only reaches a user inside the window.
 *
 * A 200 answer only means "accepted": the message id is returned so that the status webhook
 * (routes.ts) can attach `sent` / `delivered` / `read` / `failed` to it later.
 */
import type { Locale } from '@openpug/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { storeOutboxMessage } from '../mail/service';

export type WhatsAppKind = 'game_found' | 'matched' | 'queue_alert' | 'code' | 'text';

export interface WhatsAppMessage {
  /** E.164 number, e.g. +491701234567. */
  to: string;
  userId?: string | null;
  /** Template to use ('text': a free-form session message, only inside the 24-hour window). */
  kind: WhatsAppKind;
  locale: Locale;
  /** The template's body parameters in order ({{1}}, {{2}}, …). */
  params: readonly string[];
  /** The rendered text: the body of a 'text' message and what the dev outbox stores. */
  text: string;
}

export interface WhatsAppSender {
  readonly kind: 'cloud-api' | 'outbox';
  /** Resolves with the provider's message id (null for the outbox); rejects when the provider refuses. */
  send(msg: WhatsAppMessage): Promise<string | null>;
}

export interface WhatsAppTemplates {
  names: Record<Exclude<WhatsAppKind, 'text'>, string>;
  languages: Record<Locale, string>;
}

export function templatesOf(config: Config): WhatsAppTemplates {
  return {
    names: {
      game_found: config.WHATSAPP_TEMPLATE_GAME_FOUND,
      matched: config.WHATSAPP_TEMPLATE_MATCHED,
      queue_alert: config.WHATSAPP_TEMPLATE_QUEUE_ALERT,
      code: config.WHATSAPP_TEMPLATE_CODE,
    },
    languages: { en: config.WHATSAPP_LANGUAGE_EN, de: config.WHATSAPP_LANGUAGE_DE },
  };
}

/**
 * Meta error codes that no retry can fix (developers.facebook.com/documentation/business-messaging/
 * whatsapp/support/error-codes): the recipient cannot be reached (131026 undeliverable, 131047
 * re-engagement outside the window, 131030 not in the allowed list, 133010 not registered),
 * template and parameter errors (132000 parameter count, 132001 template does not exist, 132005
 * text too long, 132007 policy, 132012 parameter format, 132015 paused, 132016 disabled, 131008
 * parameter missing, 131009 parameter invalid, 131051 unsupported type, 100 invalid parameter),
 * and authorisation (190 token expired, 10 and 200 permission).
 */
export const PERMANENT_META_CODES: ReadonlySet<number> = new Set([
  10, 100, 190, 200, 131008, 131009, 131026, 131030, 131047, 131051, 132000, 132001, 132005, 132007, 132012,
  132015, 132016, 133010,
]);
/**
 * Throttling codes, which Meta answers with HTTP 400 although a later try succeeds: 4 (app
 * request limit), 80007 (WABA rate limit), 130429 (throughput), 131048 (spam rate limit), 131056
 * (pair rate limit: one business–customer pair).
 */
export const THROTTLE_META_CODES: ReadonlySet<number> = new Set([4, 80007, 130429, 131048, 131056]);

/** A refused send: `permanent` stops the retries (notify/deliver.ts); `retryAfterMs` paces the next try. */
export class WhatsAppApiError extends Error {
  readonly permanent: boolean;
  constructor(
    readonly status: number,
    readonly metaCode: number | null,
    detail: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`WhatsApp Cloud API answered ${status}${metaCode === null ? '' : ` (#${metaCode})`}: ${detail}`);
    this.name = 'WhatsAppApiError';
    const throttled = status === 429 || (metaCode !== null && THROTTLE_META_CODES.has(metaCode));
    this.permanent =
      !throttled &&
      ((metaCode !== null && PERMANENT_META_CODES.has(metaCode)) || (status >= 400 && status < 500));
  }
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The JSON body of one send call. */
export function messagePayload(msg: WhatsAppMessage, templates: WhatsAppTemplates): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: msg.to.replace(/^\+/, '') };
  if (msg.kind === 'text') return { ...base, type: 'text', text: { preview_url: false, body: msg.text } };
  const parameters = msg.params.map((text) => ({ type: 'text', text }));
  const components: Record<string, unknown>[] = parameters.length ? [{ type: 'body', parameters }] : [];
  if (msg.kind === 'code')
    components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [parameters[0]] });
  return {
    ...base,
    type: 'template',
    template: {
      name: templates.names[msg.kind],
      language: { code: templates.languages[msg.locale] },
      ...(components.length ? { components } : {}),
    },
  };
}

export class CloudApiSender implements WhatsAppSender {
  readonly kind = 'cloud-api' as const;
  constructor(
    private readonly base: string,
    private readonly phoneNumberId: string,
    private readonly token: string,
    private readonly templates: WhatsAppTemplates,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(msg: WhatsAppMessage): Promise<string | null> {
    const url = `${this.base.replace(/\/$/, '')}/${encodeURIComponent(this.phoneNumberId)}/messages`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(messagePayload(msg, this.templates)),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const raw = await res.text().catch(() => '');
    let body: { messages?: { id?: unknown }[]; error?: { code?: unknown; message?: unknown } } = {};
    try {
      body = JSON.parse(raw);
    } catch {
      // Not JSON (a proxy's error page): the status decides.
    }
    if (!res.ok) {
      const code = typeof body.error?.code === 'number' ? body.error.code : null;
      const detail = typeof body.error?.message === 'string' ? body.error.message : raw.slice(0, 200);
      throw new WhatsAppApiError(res.status, code, detail, parseRetryAfter(res.headers.get('retry-after')));
    }
    const id = body.messages?.[0]?.id;
    return typeof id === 'string' ? id : null;
  }
}

export function createWhatsAppSender(config: Config, db: Db, now: () => number): WhatsAppSender {
  if (config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID)
    return new CloudApiSender(
      config.WHATSAPP_API_URL,
      config.WHATSAPP_PHONE_NUMBER_ID,
      config.WHATSAPP_TOKEN,
      templatesOf(config),
    );
  return {
    kind: 'outbox',
    send: async (msg) => {
      await storeOutboxMessage(
        db,
        { channel: 'whatsapp', to: msg.to, userId: msg.userId, text: msg.text },
        now(),
      );
      return null;
    },
  };
}
