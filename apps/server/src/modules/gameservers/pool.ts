/**
 * The CS2 server pool of the MatchZy provider, from `CS2_SERVERS`: comma-separated entries
 *
 *   rcon://:<rcon password>@<host>:<port>[?connect=<host:port>][&gotv=<host:port> | <port>]
 *
 * `host:port` is where RCON answers (a CS2 server takes RCON on its game port, TCP). Players
 * connect to `connect` (default: the RCON address) and spectators to `gotv` (default: the connect
 * host with the connect port + 5, CS2's default `tv_port` offset). The password is URL-encoded
 * where needed (`%40` for `@`, `%2C` for a comma).
 */
export interface Cs2Server {
  /** `host:port` of RCON; identifies the server in the lease table. */
  id: string;
  host: string;
  port: number;
  password: string;
  connect: string;
  gotv: string;
}

export class ServerPoolError extends Error {}

const hostPort = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i;

function parsePort(s: string, what: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new ServerPoolError(`${what}: invalid port ${s}`);
  return n;
}

export function parseServerPool(value: string): Cs2Server[] {
  const servers: Cs2Server[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new ServerPoolError(`"${entry}" is not rcon://:password@host:port`);
    }
    if (url.protocol !== 'rcon:' || !url.hostname || !url.port)
      throw new ServerPoolError(`"${url.host || entry}": expected rcon://:password@host:port`);
    const password = decodeURIComponent(url.password);
    if (!password) throw new ServerPoolError(`${url.host}: the RCON password is missing`);
    const port = parsePort(url.port, url.host);
    const host = url.hostname;
    const connect = url.searchParams.get('connect') ?? `${host}:${port}`;
    const connectMatch = hostPort.exec(connect);
    if (!connectMatch) throw new ServerPoolError(`${url.host}: connect must be host:port`);
    const connectPort = parsePort(connectMatch[2], url.host);
    const gotvParam = url.searchParams.get('gotv');
    let gotv: string;
    if (!gotvParam) gotv = `${connectMatch[1]}:${connectPort + 5}`;
    else if (/^\d+$/.test(gotvParam)) gotv = `${connectMatch[1]}:${parsePort(gotvParam, url.host)}`;
    else if (hostPort.test(gotvParam)) gotv = gotvParam;
    else throw new ServerPoolError(`${url.host}: gotv must be host:port or a port`);
    const id = `${host}:${port}`;
    if (servers.some((s) => s.id === id)) throw new ServerPoolError(`${id} is listed twice`);
    servers.push({ id, host: host.replace(/^\[|\]$/g, ''), port, password, connect, gotv });
  }
  return servers;
}
