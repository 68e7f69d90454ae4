/**
 * A local stand-in for the WhatsApp Cloud API that behaves as Meta does (tests only). Sources,
 * Graph API v21.0 (developers.facebook.com/documentation/business-messaging/whatsapp):
 * [Templates] "Template messages" and "Copy code authentication templates";
 * [Errors] support/error-codes, "Receiving Errors: Synchronous and Asynchronous" and the code table;
 * [Webhooks] graph-api/webhooks/getting-started, "Event Notifications" (X-Hub-Signature-256) and
 *   the `messages` webhook's `statuses[]` (sent, delivered, read, failed with `errors[]`).
 *
 * - `POST /{version}/{phoneNumberId}/messages` with the bearer token. A template message is checked
 *   like Meta checks it [Templates][Errors]: the name and `language.code` must be an approved
 *   template (else 132001),
 *   the body component must carry exactly the template's number of text parameters (132000), and
 *   an authentication template needs the copy-code button component `{type: button, sub_type: url,
 *   index: '0', parameters: [{type: text, text: <the code>}]}` (131008 missing, 131009 wrong).
 * - Accepted messages answer 200 `{messages: [{id: 'wamid…'}]}` [Errors, "Synchronous and
 *   Asynchronous": a send is accepted, its failure is reported later] — also a free-form text to a
 *   number outside the 24-hour customer-service window. Its refusal comes later, as on Meta: a
 *   `failed` status with error 131047 "Re-engagement message" posted to the webhook. Templates get
 *   `sent` and `delivered` (or `failed` 131026 for a number marked undeliverable).
 * - Status notifications are `messages` webhooks signed like Meta's [Webhooks]: `X-Hub-Signature-256:
 *   sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. They are queued and posted by
 *   `flushStatuses()` (or on their own after `autoDeliverMs`).
 * - `failNext(...)` scripts refusals of the next calls (status, Meta code, Retry-After) [Errors:
 *   throttling codes 130429/131056 come with HTTP 400 or 429].
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTemplate {
  languages: readonly string[];
  bodyParams: number;
  /** An authentication template: needs the copy-code button parameter (= the body's code). */
  authentication?: boolean;
}

export interface FakeCloudApiOptions {
  token: string;
  phoneNumberId: string;
  appSecret: string;
  templates: Record<string, FakeTemplate>;
  /** Posts one webhook (raw JSON and headers) to the app under test; resolves with its HTTP status. */
  deliver: (raw: string, headers: Record<string, string>) => Promise<number>;
  /** Post statuses on their own this long after the send (default: only on flushStatuses()). */
  autoDeliverMs?: number;
}

export interface FakeRefusal {
  status: number;
  code?: number;
  retryAfter?: string;
}

interface Status {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipient: string;
  error?: { code: number; title: string; details: string };
}

export interface FakeCloudApi {
  /** Base URL including the version, for WHATSAPP_API_URL. */
  url: string;
  /** Every call, refused ones included (`answered`: the HTTP status given). */
  requests: { at: number; body: Record<string, unknown>; answered: number }[];
  /** Every webhook posted: its payload and the app's answer. */
  webhooks: { payload: unknown; answered: number }[];
  /** The user wrote to the business less than 24 hours ago: free-form text reaches them. */
  openWindow(number: string): void;
  /** Templates to this number fail with 131026. */
  markUndeliverable(number: string): void;
  failNext(...refusals: FakeRefusal[]): void;
  flushStatuses(): Promise<void>;
  signature(raw: string): string;
  close(): Promise<void>;
}

const ERROR_TITLES: Record<number, string> = {
  100: 'Invalid parameter',
  130429: 'Rate limit hit',
  131008: 'Required parameter is missing',
  131009: 'Parameter value is not valid',
  131026: 'Message undeliverable',
  131047: 'Re-engagement message',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template name does not exist in the translation',
  190: 'Access token has expired',
};

export async function startFakeCloudApi(opts: FakeCloudApiOptions): Promise<FakeCloudApi> {
  const requests: FakeCloudApi['requests'] = [];
  const webhooks: FakeCloudApi['webhooks'] = [];
  const windows = new Set<string>();
  const undeliverable = new Set<string>();
  const refusals: FakeRefusal[] = [];
  let queued: Status[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;

  const signature = (raw: string) =>
    `sha256=${createHmac('sha256', opts.appSecret).update(raw).digest('hex')}`;
  const digits = (s: string) => s.replace(/^\+/, '');

  const post = async (statuses: Status[]) => {
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: opts.phoneNumberId },
                statuses: statuses.map((s) => ({
                  id: s.id,
                  status: s.status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: s.recipient,
                  ...(s.error
                    ? {
                        errors: [
                          {
                            code: s.error.code,
                            title: s.error.title,
                            message: s.error.title,
                            error_data: { details: s.error.details },
                          },
                        ],
                      }
                    : {
                        pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                      }),
                })),
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(payload);
    const answered = await opts.deliver(raw, {
      'content-type': 'application/json',
      'x-hub-signature-256': signature(raw),
    });
    webhooks.push({ payload, answered });
  };

  const flushStatuses = async () => {
    await Promise.allSettled([...inFlight]);
    // One notification per status, in order, as Meta sends them.
    while (queued.length) {
      const batch = queued;
      queued = [];
      for (const s of batch) await post([s]);
    }
  };

  const enqueue = (statuses: Status[]) => {
    if (opts.autoDeliverMs === undefined) {
      queued.push(...statuses);
      return;
    }
    const p = new Promise<void>((resolve) => setTimeout(resolve, opts.autoDeliverMs))
      .then(async () => {
        for (const s of statuses) await post([s]);
      })
      .catch(() => undefined);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
    return status;
  };
  // [Errors] "Error object": {error: {message, type: OAuthException, code, error_data: {messaging_product,
  // details}, fbtrace_id}}, the message starting with "(#<code>)".
  const refuse = (res: ServerResponse, status: number, code: number, details: string, headers = {}) =>
    answer(
      res,
      status,
      {
        error: {
          message: `(#${code}) ${ERROR_TITLES[code] ?? 'Error'}`,
          type: 'OAuthException',
          code,
          error_data: { messaging_product: 'whatsapp', details },
          fbtrace_id: `fake${n}`,
        },
      },
      headers,
    );

  /** Meta's checks of a template payload; the refusal [code, details] or null. */
  const checkTemplate = (t: unknown): [number, string] | null => {
    const tpl = t as {
      name?: unknown;
      language?: { code?: unknown };
      components?: { type?: unknown; sub_type?: unknown; index?: unknown; parameters?: unknown }[];
    };
    const def = typeof tpl?.name === 'string' ? opts.templates[tpl.name] : undefined;
    if (!def) return [132001, `template name (${String(tpl?.name)}) does not exist`];
    const lang = tpl.language?.code;
    if (typeof lang !== 'string' || !def.languages.includes(lang))
      return [132001, `template name (${tpl.name}) does not exist in ${String(lang)}`];
    const components = tpl.components ?? [];
    if (!Array.isArray(components)) return [100, 'components must be an array'];
    const textParams = (p: unknown): string[] | null =>
      Array.isArray(p) &&
      p.every((x) => x?.type === 'text' && typeof x.text === 'string' && x.text.length > 0)
        ? p.map((x) => x.text as string)
        : null;
    const body = components.filter((c) => c?.type === 'body');
    const params = body.length === 1 ? textParams(body[0].parameters) : body.length === 0 ? [] : null;
    if (params === null) return [131009, 'body parameters must be text parameters'];
    if (params.length !== def.bodyParams)
      return [132000, `expected ${def.bodyParams} body parameters, got ${params.length}`];
    const buttons = components.filter((c) => c?.type === 'button');
    if (components.some((c) => c?.type !== 'body' && c?.type !== 'button'))
      return [131009, 'unknown component type'];
    if (!def.authentication) return buttons.length ? [131009, 'this template has no button'] : null;
    if (buttons.length !== 1) return [131008, 'the copy-code button parameter is missing'];
    const b = buttons[0];
    const bp = textParams(b.parameters);
    if (b.sub_type !== 'url' || String(b.index) !== '0' || !bp || bp.length !== 1)
      return [131009, 'the copy-code button needs sub_type url, index 0 and one text parameter'];
    if (bp[0] !== params[0]) return [131009, 'the copy-code button must carry the code of the body'];
    return null;
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    entry: { body: Record<string, unknown> },
  ): Promise<number> => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    try {
      entry.body = JSON.parse(raw);
    } catch {
      // Refused below.
    }
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    // [Errors] code table: 100 invalid parameter (here an unknown path or a bad field), 190 access
    // token expired or invalid (HTTP 401).
    if (req.method !== 'POST' || path !== `/v21.0/${opts.phoneNumberId}/messages`)
      return refuse(res, 404, 100, `unknown path ${path}`);
    if (req.headers.authorization !== `Bearer ${opts.token}`)
      return refuse(res, 401, 190, 'invalid access token');
    const refusal = refusals.shift();
    if (refusal)
      return refuse(
        res,
        refusal.status,
        refusal.code ?? 131000,
        'scripted refusal',
        refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {},
      );
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return refuse(res, 400, 100, 'the body is not JSON');
    }
    if (body.messaging_product !== 'whatsapp')
      return refuse(res, 400, 100, 'messaging_product must be whatsapp');
    const to = typeof body.to === 'string' ? body.to : '';
    if (!/^\d{7,15}$/.test(to)) return refuse(res, 400, 100, 'to must be a phone number');
    if (body.type === 'template') {
      const bad = checkTemplate(body.template);
      if (bad) return refuse(res, 400, bad[0], bad[1]);
    } else if (body.type === 'text') {
      const text = body.text as { body?: unknown } | undefined;
      if (typeof text?.body !== 'string' || !text.body) return refuse(res, 400, 100, 'text.body is required');
    } else return refuse(res, 400, 100, `unsupported type ${String(body.type)}`);

    // [Templates] / "Send messages": 200 {messaging_product, contacts: [{input, wa_id}], messages: [{id}]}.
    const id = `wamid.FAKE${String(++n).padStart(6, '0')}`;
    answer(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id }],
    });
    // [Errors] 131047 "Re-engagement message": a free-form text outside the 24-hour window is
    // accepted, then reported `failed` on the webhook ("Synchronous and Asynchronous").
    if (body.type === 'text' && !windows.has(to))
      enqueue([
        {
          id,
          status: 'failed',
          recipient: to,
          error: {
            code: 131047,
            title: ERROR_TITLES[131047],
            details:
              'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
          },
        },
      ]);
    else if (undeliverable.has(to))
      enqueue([
        {
          id,
          status: 'failed',
          recipient: to,
          error: { code: 131026, title: ERROR_TITLES[131026], details: 'Message Undeliverable.' },
        },
      ]);
    else
      enqueue([
        { id, status: 'sent', recipient: to },
        { id, status: 'delivered', recipient: to },
      ]);
    return 200;
  };

  const server = createServer((req, res) => {
    const entry = { at: Date.now(), body: {} as Record<string, unknown>, answered: 0 };
    requests.push(entry);
    handle(req, res, entry).then(
      (status) => {
        entry.answered = status;
      },
      () => {
        entry.answered = 500;
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    requests,
    webhooks,
    openWindow: (number) => windows.add(digits(number)),
    markUndeliverable: (number) => undeliverable.add(digits(number)),
    failNext: (...r) => refusals.push(...r),
    flushStatuses,
    signature,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
