/**
 * ARENA_SERVERS: the arena servers stored on first start. CS2_SERVERS' format
 * (`rcon://:<password>@<rcon host:port>[?connect=<host:port>]`, comma-separated, see
 * gameservers/pool.ts) plus an optional `name=` (URL-encoded; default: the connect address).
 */
import { parseServerPool, ServerPoolError } from '../gameservers';

export interface ArenaSeed {
  name: string;
  /** Where players connect. */
  address: string;
  /** Where RCON answers. */
  rconAddress: string;
  rconPassword: string;
}

export function parseArenaServers(value: string): ArenaSeed[] {
  const servers = parseServerPool(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return servers.map((server, i) => {
    const name = new URL(entries[i]).searchParams.get('name')?.trim() || server.connect;
    if (name.length > 64) throw new ServerPoolError(`${server.id}: the name is longer than 64 characters`);
    return { name, address: server.connect, rconAddress: server.id, rconPassword: server.password };
  });
}
