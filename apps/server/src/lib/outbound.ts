/**
 * Requests to addresses a user gave (Web Push endpoints today; any future webhook or avatar URL)
 * go only to public https hosts. Without this a push subscription for `http://127.0.0.1:6379/`
 * or `http://169.254.169.254/latest/meta-data/` made the server POST into its own network.
 *
 * Two checks, both needed:
 * - `checkUserUrl` at the door: https only, and a host written as an address must be public.
 *   The WHATWG URL parser has already turned decimal, octal and hex IPv4 forms
 *   (`https://2130706433/`) into dotted ones, and IPv4-mapped IPv6 is unwrapped before judging.
 * - `postToUserUrl` at connect time: the name is resolved by our own `lookup`, which drops every
 *   non-public answer, so a DNS answer that changes between the check and the connection (DNS
 *   rebinding) still cannot reach a private address. Redirects are not followed.
 *
 * "Public" is ipaddr.js's `unicast` range: loopback, private, link-local (the cloud metadata
 * address), carrier-grade NAT, unique-local, multicast, NAT64, 6to4, Teredo and reserved ranges
 * are all something else.
 *
 * `allow` lists `host:port` pairs exempt from both checks (OUTBOUND_ALLOW: the tests' local fake
 * push service, which is plain http on loopback). Production refuses nothing else by it.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class BlockedAddressError extends Error {}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form (ipaddr.js unwraps it); false for what is no address. */
export function isLoopbackAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === 'loopback';
}

export interface OutboundPolicy {
  /** `host:port` pairs that may be reached although they are plain http or not public. */
  allow: readonly string[];
}

/** Whether an IP address is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'unicast';
}

const allowed = (url: URL, policy: OutboundPolicy) => {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return policy.allow.includes(`${url.hostname}:${port}`);
};

/** The URL if a user may make the server send requests to it; throws BlockedAddressError if not. */
export function checkUserUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('not a URL');
  }
  if (allowed(url, policy)) return url;
  if (url.protocol !== 'https:') throw new BlockedAddressError(`${url.protocol} is not https`);
  if (url.username || url.password) throw new BlockedAddressError('credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (ipaddr.isValid(host) && !isPublicAddress(host)) throw new BlockedAddressError(`${host} is not public`);
  if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedAddressError(`${host} is local`);
  return url;
}

/** Resolves like dns.lookup but answers only with public addresses (checked at connect time). */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, answers: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const usable = answers.filter((a) => isPublicAddress(a.address));
    if (usable.length === 0)
      return callback(new BlockedAddressError(`${hostname} resolves to no public address`), '', 0);
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
};

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
}

export interface OutboundAnswer {
  status: number;
  /** The Retry-After header, if any (a 429's or 503's wait). */
  retryAfter: string | undefined;
}

/** Sends one request to a user-given URL under the policy; resolves with the status and Retry-After. */
export function postToUserUrl(
  raw: string,
  req: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundAnswer> {
  const url = checkUserUrl(raw, policy);
  const exempt = allowed(url, policy);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: req.method,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        lookup: exempt ? undefined : publicLookup,
        timeout: req.timeoutMs,
      },
      (res) => {
        res.resume(); // the body is not needed; a 3xx is answered as it is, never followed
        const retryAfter = res.headers['retry-after'];
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter }));
        res.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${req.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(req.body);
  });
}
