import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { parseServerPool, ServerPoolError } from './pool';

describe('CS2_SERVERS', () => {
  it('parses entries with defaults for connect and GOTV', () => {
    expect(parseServerPool('rcon://:pw@10.0.0.5:27015')).toEqual([
      {
        id: '10.0.0.5:27015',
        host: '10.0.0.5',
        port: 27015,
        password: 'pw',
        connect: '10.0.0.5:27015',
        gotv: '10.0.0.5:27020',
      },
    ]);
  });

  it('takes a public connect address, a GOTV port or address, and URL-encoded passwords', () => {
    const [a, b, c] = parseServerPool(
      ' rcon://:p%40ss%2Cword@10.0.0.5:27015?connect=cs.example.org:27115 ,' +
        'rcon://:x@cs2-b.internal:27016?connect=cs.example.org:27116&gotv=27126,' +
        'rcon://:y@10.0.0.7:27015?gotv=tv.example.org:27020',
    );
    expect(a).toMatchObject({
      password: 'p@ss,word',
      connect: 'cs.example.org:27115',
      gotv: 'cs.example.org:27120',
    });
    expect(b).toMatchObject({
      id: 'cs2-b.internal:27016',
      host: 'cs2-b.internal',
      gotv: 'cs.example.org:27126',
    });
    expect(c).toMatchObject({ connect: '10.0.0.7:27015', gotv: 'tv.example.org:27020' });
    expect(parseServerPool(' , ')).toEqual([]);
  });

  it('refuses entries it cannot use, naming them', () => {
    for (const bad of [
      '10.0.0.5:27015',
      'http://:pw@10.0.0.5:27015',
      'rcon://10.0.0.5:27015',
      'rcon://:pw@10.0.0.5',
      'rcon://:pw@10.0.0.5:27015?connect=nohost',
      'rcon://:pw@10.0.0.5:27015?gotv=99999',
      'rcon://:pw@10.0.0.5:27015,rcon://:other@10.0.0.5:27015',
    ])
      expect(() => parseServerPool(bad), bad).toThrow(ServerPoolError);
  });

  it('the matchzy provider needs at least one server; a bad entry stops the start', () => {
    expect(() => loadConfig({ GAME_SERVER_PROVIDER: 'matchzy' })).toThrow(/CS2_SERVERS/);
    expect(() => loadConfig({ CS2_SERVERS: 'rcon://nopassword@h:1' })).toThrow(ConfigError);
    const config = loadConfig({ GAME_SERVER_PROVIDER: 'matchzy', CS2_SERVERS: 'rcon://:pw@h:27015' });
    expect(config.cs2Servers.map((s) => s.id)).toEqual(['h:27015']);
    expect(loadConfig({}).cs2Servers).toEqual([]);
  });
});
