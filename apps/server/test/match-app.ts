/**
 * The bootstrap the match tests share (matches, gameservers, voice, admin): an app on a manual
 * clock whose deadlines fire only when the test moves time, a one-map pool and a one-second pick
 * timeout so a match gets to its server quickly, and socket clients that close with the app.
 * Optionally the MatchZy provider against fake CS2 servers, on the port PUBLIC_URL names (the
 * servers fetch the match config and post their events back there).
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { MatchzyProvider } from '../src/modules/gameservers/matchzy-provider';
import { setProvider } from '../src/modules/gameservers/service';
import type { FakeMatchzyServer } from '../src/modules/gameservers/testing/fake-matchzy';
import { matches } from '../src/modules/matches/schema';
import { connectSocket, createTestApp, type manualClock, type TestApp } from './helpers';

type ManualClock = ReturnType<typeof manualClock>;

export interface MatchTestApp extends TestApp {
  /** The environment it was built with (for a second instance on the same database). */
  env: Record<string, string>;
  /** Moves the clock by `ms` and fires every job that fell due. */
  advance(ms: number): Promise<void>;
  matchRow(id: string): Promise<typeof matches.$inferSelect>;
  /** A socket signed in with `token`, disconnected when the app closes. */
  socket(token: string): Promise<Socket>;
}

/** A free local port (the app must know its public URL before it listens). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

export async function createMatchTestApp(options: {
  clock: ManualClock;
  /** Added to (and overriding) the match defaults. */
  env?: Record<string, string>;
  /** MATCH_MAP_POOL: one map by default (no veto to sit through); null for the configured pool. */
  mapPool?: string | null;
  /** Listen for sockets and HTTP (on the PUBLIC_URL port with `matchzy`); default true. */
  listen?: boolean;
  /** CS2 servers running MatchZy (fakes) with their RCON password: the pool of the MatchZy provider. */
  matchzy?: {
    servers: FakeMatchzyServer[];
    password: string;
    /** Five load checks 200 ms apart instead of the configured ones; default true. */
    quickLoad?: boolean;
  };
}): Promise<MatchTestApp> {
  const { clock, matchzy } = options;
  const port = matchzy ? await freePort() : 0;
  const mapPool = options.mapPool === undefined ? 'de_dust2' : options.mapPool;
  const env: Record<string, string> = {
    JOBS_POLL_MS: '0',
    PICK_TIMEOUT_MS: '1000',
    ...(mapPool !== null && { MATCH_MAP_POOL: mapPool }),
    ...(matchzy && {
      GAME_SERVER_PROVIDER: 'matchzy',
      CS2_SERVERS: matchzy.servers.map((f) => `rcon://:${matchzy.password}@127.0.0.1:${f.port}`).join(','),
      CS2_RCON_TIMEOUT_MS: '2000',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }),
    ...options.env,
  };
  const t = await createTestApp({ clock, env });
  if (options.listen !== false) {
    await t.app.listen({ port, host: '127.0.0.1' });
    t.url = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  }
  if (matchzy && matchzy.quickLoad !== false)
    // Five quick load checks instead of the production wait: a server that does not load fails fast.
    setProvider(
      t.app.ctx,
      new MatchzyProvider(t.app.ctx, t.app.ctx.config.cs2Servers, {
        timeoutMs: 2_000,
        loadChecks: 5,
        loadCheckIntervalMs: 200,
      }),
    );
  const sockets: Socket[] = [];
  const close = t.close;
  return Object.assign(t, {
    env,
    async advance(ms: number) {
      clock.advance(ms);
      await t.app.ctx.jobs.runDue();
    },
    async matchRow(id: string) {
      return (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];
    },
    async socket(token: string) {
      const socket = await connectSocket(t.url, token);
      sockets.push(socket);
      return socket;
    },
    async close() {
      for (const s of sockets) s.disconnect();
      await close();
    },
  });
}
