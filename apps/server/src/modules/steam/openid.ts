/**
 * Steam login over OpenID 2.0 (relying-party side), as Steam implements it: no discovery, no
 * associations — the assertion is verified "directly" by sending it back to the provider with
 * `openid.mode=check_authentication` and requiring `is_valid:true`.
 *
 * Before asking the provider we also check what the assertion claims: mode id_res, the 2.0
 * namespace, the configured endpoint (never the one the assertion names), our own return_to, a
 * claimed id under the provider's `…/id/` prefix holding a SteamID64, the signed field list and
 * a fresh, not yet seen nonce.
 */
import type { Config } from '../../config';

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
export const NONCE_MAX_AGE_MS = 5 * 60_000;

export class OpenIdError extends Error {}

/** The dev tools' stand-in for Steam's OpenID provider (DEV_TOOLS, modules/dev/routes.ts). */
export const devOpenIdUrl = (config: Config) => `${config.PUBLIC_URL}/api/dev/openid/login`;

/** Steam: https://steamcommunity.com/openid/login → claimed ids https://steamcommunity.com/openid/id/<id64>. */
export const claimedIdPrefix = (providerUrl: string) => `${providerUrl.replace(/\/login\/?$/, '')}/id/`;

export function authRedirectUrl(providerUrl: string, returnTo: string, realm: string): string {
  const url = new URL(providerUrl);
  const params = {
    'openid.ns': OPENID_NS,
    'openid.mode': 'checkid_setup',
    'openid.return_to': returnTo,
    'openid.realm': realm,
    'openid.identity': IDENTIFIER_SELECT,
    'openid.claimed_id': IDENTIFIER_SELECT,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Parses OpenID key-value form ("key:value\n" lines). */
export function parseKeyValueForm(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of body.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

export interface VerifyOptions {
  providerUrl: string;
  /** Our return URL; the assertion's openid.return_to must be this (query allowed). */
  returnTo: string;
  now: number;
  /**
   * Claims a nonce for this login, atomically across instances; false when it was used before
   * (replay). Called before the provider is asked, so two racing replays cannot both pass.
   */
  claimNonce?: (nonce: string) => Promise<boolean>;
  fetch?: typeof fetch;
}

/** Verifies a positive assertion and returns the SteamID64; throws OpenIdError otherwise. */
export async function verifyAssertion(query: Record<string, string>, opts: VerifyOptions): Promise<string> {
  const get = (k: string) => query[`openid.${k}`];
  if (get('mode') === 'cancel') throw new OpenIdError('cancelled');
  if (get('mode') !== 'id_res') throw new OpenIdError('not a positive assertion');
  if (get('ns') !== OPENID_NS) throw new OpenIdError('wrong namespace');
  if (get('op_endpoint') !== opts.providerUrl) throw new OpenIdError('unexpected provider');
  const returnTo = get('return_to') ?? '';
  if (returnTo !== opts.returnTo && !returnTo.startsWith(`${opts.returnTo}?`))
    throw new OpenIdError('wrong return_to');
  const claimed = get('claimed_id') ?? '';
  const prefix = claimedIdPrefix(opts.providerUrl);
  const m = claimed.startsWith(prefix) ? /^(\d{17})$/.exec(claimed.slice(prefix.length)) : null;
  if (!m || get('identity') !== claimed) throw new OpenIdError('bad claimed id');
  const signed = (get('signed') ?? '').split(',');
  for (const f of ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle']) {
    if (!signed.includes(f)) throw new OpenIdError(`${f} is not signed`);
  }
  const nonce = get('response_nonce') ?? '';
  const issued = Date.parse(nonce.slice(0, 20));
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/.test(nonce) || Number.isNaN(issued))
    throw new OpenIdError('bad nonce');
  if (Math.abs(opts.now - issued) > NONCE_MAX_AGE_MS) throw new OpenIdError('stale nonce');
  if (opts.claimNonce && !(await opts.claimNonce(nonce))) throw new OpenIdError('replayed nonce');

  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (k.startsWith('openid.')) body.set(k, v);
  body.set('openid.mode', 'check_authentication');
  let answer: Record<string, string>;
  try {
    const res = await (opts.fetch ?? fetch)(opts.providerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
      body: body.toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new OpenIdError(`provider answered ${res.status}`);
    answer = parseKeyValueForm(await res.text());
  } catch (err) {
    if (err instanceof OpenIdError) throw err;
    throw new OpenIdError('provider not reachable');
  }
  if (answer.is_valid !== 'true') throw new OpenIdError('provider rejected the assertion');
  return m[1];
}
