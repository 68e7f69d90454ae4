/**
 * The SSRF table: which user-given URLs the server may send requests to. Public https hosts only;
 * every private, loopback, link-local (metadata), mapped, decimal and NAT64 form is refused at the
 * door, and a name that resolves to a private address is refused at connect time.
 */
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  checkUserUrl,
  isLoopbackAddress,
  isPublicAddress,
  postToUserUrl,
  publicLookup,
} from './outbound';

const none = { allow: [] };

describe('user-given URLs', () => {
  it.each([
    'http://127.0.0.1:6379/',
    'http://10.0.0.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'https://127.0.0.1/',
    'https://2130706433/', // decimal 127.0.0.1
    'https://0x7f.1/', // hex
    'https://017700000001/', // octal
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/', // carrier-grade NAT
    'https://169.254.169.254/',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/', // IPv4-mapped
    'https://[::ffff:a9fe:a9fe]/', // mapped metadata address
    'https://[fd00:ec2::254]/', // unique-local (a cloud's IPv6 metadata)
    'https://[fe80::1]/',
    'https://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
    'https://localhost/',
    'https://localhost./',
    'https://push.localhost/',
    'https://user:pw@push.example.org/',
    'http://push.example.org/',
    'ftp://push.example.org/',
    'not a url',
  ])('refuses %s', (url) => {
    expect(() => checkUserUrl(url, none)).toThrow(BlockedAddressError);
  });

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://93.184.216.34/x',
    'https://[2606:4700::1111]/x',
  ])('accepts %s', (url) => {
    expect(checkUserUrl(url, none).href).toBe(new URL(url).href);
  });

  it('lets OUTBOUND_ALLOW pairs through (the local fake in tests), nothing else', () => {
    const policy = { allow: ['127.0.0.1:4555'] };
    expect(checkUserUrl('http://127.0.0.1:4555/push/1', policy).port).toBe('4555');
    expect(() => checkUserUrl('http://127.0.0.1:4556/push/1', policy)).toThrow(BlockedAddressError);
  });

  it('knows a loopback peer (the dev tools and /metrics trust it): 127.0.0.0/8, ::1, their IPv4-mapped form', () => {
    for (const ip of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '::FFFF:127.1.2.3'])
      expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of [
      '128.0.0.1',
      '10.0.0.1',
      '::2',
      '::ffff:10.0.0.1',
      '0.0.0.0',
      'localhost',
      '',
      '127.0.0.1.5',
    ])
      expect(isLoopbackAddress(ip), ip).toBe(false);
  });

  it('judges addresses by range', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('198.18.0.1')).toBe(false); // benchmarking
    expect(isPublicAddress('224.0.0.1')).toBe(false);
    expect(isPublicAddress('nonsense')).toBe(false);
  });

  it('resolves names at connect time and drops private answers', async () => {
    const err = await new Promise<Error | null>((resolve) =>
      publicLookup('localhost', { all: true }, (e) => resolve(e as Error | null)),
    );
    expect(err).toBeInstanceOf(BlockedAddressError);
  });

  it('never connects to a name that resolves to a private address (checked at connect, not only at the door)', async () => {
    // This machine's own name passes the door (it is not an address or "localhost") but resolves
    // to a loopback or private address.
    const name = os.hostname();
    const { address } = await lookup(name);
    expect(isPublicAddress(address)).toBe(false);
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(
        postToUserUrl(`https://${name}:${port}/`, { method: 'POST', headers: {}, timeoutMs: 2_000 }, none),
      ).rejects.toBeInstanceOf(BlockedAddressError);
      expect(reached).toBe(0);
    } finally {
      server.close();
    }
  });
});
