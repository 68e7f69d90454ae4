/**
 * The Source RCON client: the packet codec byte for byte, and the client against a fake CS2
 * server speaking RCON over real TCP (login, wrong password, split answers, servers with and
 * without the mirrored end marker, timeouts, refused and dropped connections).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  encodePacket,
  PacketDecoder,
  quoteArg,
  RconClient,
  RconError,
  SERVERDATA_AUTH,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  withRcon,
} from './rcon';
import { FakeMatchzyServer } from './testing/fake-matchzy';

describe('RCON packet codec', () => {
  it('encodes size, id, type, body and the two closing NULs, little-endian', () => {
    const expected = [
      '10000000', // size 16 = id 4 + type 4 + "status" 6 + 2 NULs
      '07000000', // id 7
      '02000000', // SERVERDATA_EXECCOMMAND
      Buffer.from('status').toString('hex'),
      '0000',
    ];
    expect(encodePacket(7, SERVERDATA_EXECCOMMAND, 'status').toString('hex')).toBe(expected.join(''));
    expect(encodePacket(-1, SERVERDATA_AUTH, '').toString('hex')).toBe('0a000000ffffffff030000000000');
  });

  it('refuses a request longer than 4096 bytes', () => {
    expect(() => encodePacket(1, SERVERDATA_EXECCOMMAND, 'x'.repeat(4087))).toThrow(RconError);
    expect(encodePacket(1, SERVERDATA_EXECCOMMAND, 'x'.repeat(4086))).toHaveLength(4100);
  });

  it('decodes packets whatever the TCP chunking, multi-byte text included', () => {
    const wire = Buffer.concat([
      encodePacket(1, SERVERDATA_RESPONSE_VALUE, 'hé'),
      encodePacket(2, 2, ''),
      encodePacket(-1, 2, 'ok'),
    ]);
    for (const step of [1, 3, 7, wire.length]) {
      const decoder = new PacketDecoder();
      const packets = [];
      for (let i = 0; i < wire.length; i += step) packets.push(...decoder.push(wire.subarray(i, i + step)));
      expect(packets.map((p) => [p.id, p.type, p.body.toString('utf8')])).toEqual([
        [1, 0, 'hé'],
        [2, 2, ''],
        [-1, 2, 'ok'],
      ]);
    }
  });

  it('rejects a packet size no server sends', () => {
    const bad = Buffer.alloc(12);
    bad.writeInt32LE(5, 0);
    expect(() => new PacketDecoder().push(bad)).toThrow(/invalid packet size 5/);
  });

  it('quotes console arguments and refuses what the console cannot quote', () => {
    expect(quoteArg('http://x/a b')).toBe('"http://x/a b"');
    expect(() => quoteArg('a"; quit')).toThrow(RconError);
    expect(() => quoteArg('a\nquit')).toThrow(RconError);
  });
});

describe('RCON client against a fake CS2 server', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()?.();
  });
  const fake = async (style: 'csgo' | 'cs2' = 'csgo') => {
    const f = await new FakeMatchzyServer('s3cret', style).listen();
    cleanup.push(() => f.close());
    return f;
  };
  const options = (f: FakeMatchzyServer, password = 's3cret') => ({
    host: '127.0.0.1',
    port: f.port,
    password,
    timeoutMs: 1_000,
  });

  it('logs in and runs commands in order on one connection', async () => {
    const f = await fake();
    const answers = await withRcon(options(f), (rcon) =>
      Promise.all([rcon.command('echo one'), rcon.command('echo "two words"'), rcon.command('nope')]),
    );
    expect(answers).toEqual(['one\n', 'two words\n', 'Unknown command: nope\n']);
    expect(f.logins).toBe(1);
    expect(f.commands).toEqual(['echo one', 'echo "two words"', 'nope']);
  });

  it('a wrong password is AUTH_FAILED (the server answers id -1)', async () => {
    const f = await fake();
    await expect(RconClient.connect(options(f, 'wrong'))).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(f.failedLogins).toBe(1);
    expect(f.commands).toEqual([]);
  });

  it('joins an answer split over several packets, up to the mirrored end marker', async () => {
    const f = await fake();
    // A multi-byte character straddles the first packet boundary (4086 body bytes).
    f.cvarlistText = `${'a'.repeat(4085)}é${'cvar line\n'.repeat(1500)}`;
    const answer = await withRcon(options(f), async (rcon) => {
      const long = await rcon.command('cvarlist');
      expect(await rcon.command('echo after')).toBe('after\n');
      return long;
    });
    expect(Buffer.byteLength(answer)).toBeGreaterThan(3 * 4086);
    expect(answer).toBe(f.cvarlistText);
  });

  it('works with a CS2-style server: no empty packet before the login answer, no mirror', async () => {
    const f = await fake('cs2');
    const answers = await withRcon({ ...options(f), quietMs: 30 }, async (rcon) => [
      await rcon.command('echo a'),
      await rcon.command('get5_status'),
    ]);
    expect(answers[0]).toBe('a\n');
    expect(JSON.parse(answers[1])).toMatchObject({ gamestate: 'none' });
  });

  it('CS2 answers a command that prints nothing with nothing at all: the echoed end marker ends it', async () => {
    const f = await fake('cs2');
    const started = Date.now();
    const answers = await withRcon({ ...options(f), timeoutMs: 5_000, quietMs: 4_000 }, async (rcon) => [
      await rcon.command('matchzy_remote_log_url "http://x/events"'),
      await rcon.command('matchzy_remote_log_header_key "Authorization"'),
      await rcon.command('echo still in step'),
    ]);
    expect(answers).toEqual(['', '', 'still in step\n']);
    // Neither the quiet period nor the timeout was waited for.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(f.remoteLog.url).toBe('http://x/events');
    expect(f.commands).toEqual([
      'matchzy_remote_log_url "http://x/events"',
      'matchzy_remote_log_header_key "Authorization"',
      'echo still in step',
    ]);
    expect(f.markers).toBe(3);
  });

  it('times out when the server stops answering, at login and after it', async () => {
    const f = await fake();
    f.mute = true;
    await expect(RconClient.connect(options(f))).rejects.toMatchObject({ code: 'TIMEOUT' });
    f.mute = false;
    const rcon = await RconClient.connect(options(f));
    f.mute = true;
    const started = Date.now();
    await expect(rcon.command('echo lost')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // The connection is given up: later calls fail at once instead of reading stale answers.
    await expect(rcon.command('echo again')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('a refused connection and a connection dropped mid-command are CONNECTION errors', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(
      RconClient.connect({ host: '127.0.0.1', port, password: 'x', timeoutMs: 1_000 }),
    ).rejects.toMatchObject({ code: 'CONNECTION' });

    const f = await fake();
    const rcon = await RconClient.connect(options(f));
    f.dropOnCommand = true;
    await expect(rcon.command('echo bye')).rejects.toMatchObject({ code: 'CONNECTION' });
  });
});
