/**
 * Helpers of the deploy journeys: the state `npm run deploy:local` writes (instance ports and
 * pids, the nginx access log), socket bots that reach it through the proxy over TLS with the
 * self-signed certificate, and the simulator's seeded rounds (to know the right final score).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { allow } from '../helpers/time';

export interface DeployState {
  url: string;
  accessLog: string;
  instances: { port: number; url: string; pid: number | null; starts: number }[];
  synapse: string;
  database: string;
}

const stateFile = () =>
  process.env.DEPLOY_STATE_FILE ??
  path.join(os.tmpdir(), `openpug-deploy-e2e-${process.env.DEPLOY_E2E_PORT ?? 3443}.json`);

export function readState(): DeployState {
  return JSON.parse(readFileSync(stateFile(), 'utf8'));
}

/** Until every instance runs (started again after a kill) and answers its health check. */
export async function waitAllUp(timeout = allow(60_000)): Promise<DeployState> {
  await expect
    .poll(
      async () => {
        const s = readState();
        if (s.instances.some((x) => x.pid === null)) return false;
        const health = await Promise.all(
          s.instances.map((x) =>
            fetch(`${x.url}/api/health`).then(
              (r) => r.ok,
              () => false,
            ),
          ),
        );
        return health.every(Boolean);
      },
      { timeout },
    )
    .toBe(true);
  return readState();
}

/** nginx access-log lines of /socket requests that an instance answered (websockets are logged when they end). */
export function socketLines(state: DeployState, port: number): string[] {
  return readFileSync(state.accessLog, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"GET /socket/') && l.includes(`upstream=127.0.0.1:${port} `));
}

/** A socket.io client through the proxy (wss, self-signed), authenticated again after every reconnect. */
export async function connectBotTls(baseURL: string, token: string): Promise<Socket> {
  const socket = io(baseURL, {
    path: '/socket',
    transports: ['websocket'],
    forceNew: true,
    rejectUnauthorized: false,
    reconnectionDelay: 500,
    reconnectionDelayMax: 2_000,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bot did not authenticate')), 15_000);
    socket.once('authenticated', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('connect', () => socket.emit('authenticate', { key: token }));
  });
  return socket;
}

// The simulator's rounds (apps/server/src/modules/gameservers/simulator.ts): the winner of round
// n is the first draw of mulberry32(hashSeed(`<matchId>:<n>`)) against team one's chance, 0.5
// between two teams of equal Elo. Copied here: the journey must not import server code.
function hashSeed(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function firstDraw(seed: number): number {
  let a = seed >>> 0;
  a = (a + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function isMapOver(a: number, b: number): boolean {
  const total = a + b;
  const high = Math.max(a, b);
  if (total <= 24) return high >= 13;
  return high >= 16 + 3 * Math.floor((total - 25) / 6);
}

/** The final score the simulator plays for a match between two teams of equal Elo. */
export function expectedScore(matchId: string): { teamOne: number; teamTwo: number } {
  const score = { teamOne: 0, teamTwo: 0 };
  for (let round = 1; !isMapOver(score.teamOne, score.teamTwo); round++) {
    if (firstDraw(hashSeed(`${matchId}:${round}`)) < 0.5) score.teamOne++;
    else score.teamTwo++;
  }
  return score;
}
