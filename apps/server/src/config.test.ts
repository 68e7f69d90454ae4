import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

/** A complete production configuration; each test changes one thing. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: 'production-secret-that-is-at-least-32-characters',
  PUBLIC_URL: 'https://pug.example/',
  DATABASE_URL: 'postgres://openpug@db/openpug',
  MATRIX_HOMESERVER_URL: 'https://matrix.pug.example',
  SMTP_URL: 'smtps://mailer:pw@mail.pug.example:465',
  GAME_SERVER_PROVIDER: 'matchzy',
  CS2_SERVERS: 'rcon://:pw@cs2.pug.example:27015',
  TEAMSPEAK_HOST: 'ts.pug.example',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
}

describe('configuration', () => {
  it('has documented defaults for everything', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DEV_TOOLS).toBe(true);
    expect(config.ACCEPT_TIMEOUT_MS).toBe(30_000);
  });

  it('never runs dev tools in production', () => {
    expect(loadConfig({ ...PRODUCTION }).DEV_TOOLS).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DEV_TOOLS: 'off' }).DEV_TOOLS).toBe(false);
  });

  it('refuses a JWT_SECRET shorter than 32 characters in every environment', () => {
    expect(problemsOf({ JWT_SECRET: 'short' })).toEqual([
      expect.stringMatching(/^JWT_SECRET must be at least 32/),
    ]);
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET).toBe('x'.repeat(32));
  });

  it('VOICE_SERVER_PROVIDER must agree with TEAMSPEAK_HOST', () => {
    expect(problemsOf({ VOICE_SERVER_PROVIDER: 'teamspeak' })).toEqual([
      'VOICE_SERVER_PROVIDER=teamspeak needs TEAMSPEAK_HOST',
    ]);
    expect(problemsOf({ VOICE_SERVER_PROVIDER: 'simulator', TEAMSPEAK_HOST: 'ts.example' })).toHaveLength(1);
    expect(
      loadConfig({ VOICE_SERVER_PROVIDER: 'teamspeak', TEAMSPEAK_HOST: 'ts.example' }).TEAMSPEAK_HOST,
    ).toBe('ts.example');
  });

  describe('production refuses unsafe settings at start, one line per problem', () => {
    it('accepts a complete production configuration', () => {
      const config = loadConfig(PRODUCTION);
      expect(config.PUBLIC_URL).toBe('https://pug.example');
      expect(config.GAME_SERVER_PROVIDER).toBe('matchzy');
      expect(config.DEV_TOOLS).toBe(false);
      // A demo may choose both simulators by name; several instances with PostgreSQL and Synapse.
      const demo = {
        ...PRODUCTION,
        GAME_SERVER_PROVIDER: 'simulator',
        CS2_SERVERS: '',
        TEAMSPEAK_HOST: '',
        VOICE_SERVER_PROVIDER: 'simulator',
        REDIS_URL: 'redis://127.0.0.1:6379',
      };
      expect(loadConfig(demo).GAME_SERVER_PROVIDER).toBe('simulator');
    });

    it.each([
      ['DEV_TOOLS on', { DEV_TOOLS: 'true' }, /^DEV_TOOLS must not be on in production/],
      ['no JWT_SECRET', { JWT_SECRET: '' }, /^JWT_SECRET is required in production/],
      ['a short JWT_SECRET', { JWT_SECRET: 'a'.repeat(31) }, /^JWT_SECRET must be at least 32 characters/],
      ['no PUBLIC_URL', { PUBLIC_URL: '' }, /^PUBLIC_URL is required in production/],
      ['an http:// PUBLIC_URL', { PUBLIC_URL: 'http://pug.example' }, /^PUBLIC_URL must be .*https:\/\//],
      [
        'REDIS_URL with PGlite',
        { DATABASE_URL: '', REDIS_URL: 'redis://r:6379' },
        /^REDIS_URL needs DATABASE_URL/,
      ],
      [
        'REDIS_URL with the embedded chat server',
        { MATRIX_HOMESERVER_URL: '', REDIS_URL: 'redis://r:6379' },
        /^REDIS_URL needs MATRIX_HOMESERVER_URL/,
      ],
      [
        'an internal Synapse address without a public one for browsers',
        { MATRIX_HOMESERVER_URL: 'http://127.0.0.1:8008', MATRIX_PUBLIC_URL: '' },
        /^MATRIX_HOMESERVER_URL is a local address that browsers cannot reach/,
      ],
      ['no SMTP_URL', { SMTP_URL: '' }, /^SMTP_URL is required in production/],
      [
        'OUTBOUND_ALLOW set',
        { OUTBOUND_ALLOW: '127.0.0.1:9000' },
        /^OUTBOUND_ALLOW must not be set in production/,
      ],
      [
        'the game-server simulator by default',
        { GAME_SERVER_PROVIDER: '', CS2_SERVERS: '' },
        /^GAME_SERVER_PROVIDER must be set in production/,
      ],
      [
        'the simulated voice server by default',
        { TEAMSPEAK_HOST: '' },
        /^TEAMSPEAK_HOST must be set in production/,
      ],
    ])('refuses %s', (_name, change, line) => {
      const problems = problemsOf({ ...PRODUCTION, ...change });
      expect(problems).toEqual([expect.stringMatching(line)]);
      // One clear line each.
      for (const p of problems) expect(p).not.toContain('\n');
    });

    it('lists every problem, not just the first', () => {
      const problems = problemsOf({ NODE_ENV: 'production', DEV_TOOLS: 'yes', OUTBOUND_ALLOW: 'x:1' });
      expect(problems.map((p) => p.split(' ')[0])).toEqual([
        'DEV_TOOLS',
        'JWT_SECRET',
        'PUBLIC_URL',
        'SMTP_URL',
        'OUTBOUND_ALLOW',
        'GAME_SERVER_PROVIDER',
        'TEAMSPEAK_HOST',
      ]);
      try {
        loadConfig({ NODE_ENV: 'production' });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).message.split('\n')).toEqual((err as ConfigError).problems);
      }
    });

    it('lists every invalid value too', () => {
      expect(problemsOf({ PORT: 'eighty', ELO_WIN: '-1' })).toEqual([
        expect.stringMatching(/^Invalid environment variable PORT/),
        expect.stringMatching(/^Invalid environment variable ELO_WIN/),
      ]);
    });
  });

  it('refuses an invalid value with the variable name', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('a live game goes stale after 20 minutes without an event; the simulator must be faster', () => {
    expect(loadConfig({}).MATCH_STALE_TIMEOUT_MS).toBe(20 * 60_000);
    expect(loadConfig({ MATCH_STALE_TIMEOUT_MS: '0', SIM_ROUND_MS: '99999999' }).MATCH_STALE_TIMEOUT_MS).toBe(
      0,
    );
    expect(() => loadConfig({ MATCH_STALE_TIMEOUT_MS: '20000' })).toThrow(/SIM_ROUND_MS/);
  });

  it('TRUST_PROXY takes peers, a hop count or a yes/no word', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback,linklocal,uniquelocal');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'yes' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('every variable is documented in the README', () => {
    const source = readFileSync(path.join(import.meta.dirname, 'config.ts'), 'utf8');
    const schema = source.slice(source.indexOf('const envSchema'), source.indexOf('export type Env'));
    const names = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
