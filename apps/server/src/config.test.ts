import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has documented defaults for everything', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DEV_TOOLS).toBe(true);
    expect(config.ACCEPT_TIMEOUT_MS).toBe(30_000);
  });

  it('never runs dev tools in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', DEV_TOOLS: 'on' }).DEV_TOOLS).toBe(false);
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
