/**
 * Journey helpers for competition: an admin account (its e-mail is in the e2e server's
 * ADMIN_EMAILS, which promotes it once the address is verified) and ten socket bots that queue, accept, pick and ban until their match is live.
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { linkVoiceByApi, signUpByApi } from './accounts';
import { type Bot, botVetoTurn, call, connectBot, matchState, waitForVetoStep } from './match';
import { type Player, signUpPlayer } from './social';
import { allow } from './time';

export const E2E_ADMIN_EMAIL = 'competition-admin@example.test';

/**
 * The e2e server's admin session: the journeys share one server, so a spec that ran earlier may
 * have made the account already (log in); else it signs up and opens the mailed link.
 */
export async function adminLogin(request: APIRequestContext, name: string, password: string) {
  const login = await request.post('/api/login', { data: { email: E2E_ADMIN_EMAIL, password } });
  if (login.ok()) return await login.json();
  return signUpByApi(request, { name, email: E2E_ADMIN_EMAIL, password });
}

export async function signUpAdmin(request: APIRequestContext): Promise<Player> {
  const name = `Admin${Date.now().toString(36)}`;
  const password = 'secret-pass-1';
  const session = await adminLogin(request, name, password);
  if (session.user?.role !== 'ADMIN') throw new Error(`admin not promoted: ${JSON.stringify(session.user)}`);
  return {
    id: session.user._id,
    name: session.user.name ?? name,
    email: E2E_ADMIN_EMAIL,
    password,
    token: session.token,
    session,
  };
}

/**
 * Until nobody is queued: players other journeys left leave after QUEUE_DISCONNECT_GRACE_MS, and a
 * phase they left open ends after the journey servers' ACCEPT_TIMEOUT_MS (90 s).
 */
export async function emptyQueue(request: APIRequestContext, token: string) {
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/queue', { headers: { Authorization: `Bearer ${token}` } });
        return ((await res.json()) as { count: number }).count;
      },
      { timeout: allow(120_000), intervals: [1000] },
    )
    .toBe(0);
}

/**
 * Ten bots play from the queue to a live (active) match; returns the players, bots and match id.
 * `onMatch` runs once the match exists, before the veto (e.g. to open its room in browsers).
 */
export async function botsToLiveMatch(
  request: APIRequestContext,
  baseURL: string,
  prefix: string,
  onMatch?: (matchId: string, players: Player[]) => Promise<void>,
): Promise<{ players: Player[]; bots: Bot[]; matchId: string }> {
  const players = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `${prefix}${i}x`)),
  );
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  // Players an earlier journey left queued would take places in these bots' accept phase.
  await emptyQueue(request, players[0].token);
  const bots = await Promise.all(players.map((p) => connectBot(baseURL, p.token)));
  const botOf = new Map(players.map((p, i) => [p.id, bots[i]]));
  for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
  // Each bot accepts once its accept phase is open: a fixed pause lost that race when two journeys
  // ran at once, and a bot that never accepted left the match unborn. A refused ready changes nothing.
  for (const bot of bots)
    await expect
      .poll(() =>
        call(bot, 'queue-message', { event: 'ready' }).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
  const ids = new Set(players.map((p) => p.id));
  let matchId = '';
  await expect
    .poll(async () => {
      const res = await request.get('/api/match', { params: { status: 'live', limit: '50' } });
      const page = (await res.json()) as { docs: { _id: string }[] };
      for (const doc of page.docs) {
        const s = await matchState(request, doc._id);
        const members = [s.teamOne.captain, s.teamTwo.captain, ...s.pool];
        if (members.some((m) => ids.has(m._id))) matchId = doc._id;
      }
      return matchId;
    })
    .not.toBe('');
  await onMatch?.(matchId, players);
  for (;;) {
    const state = await matchState(request, matchId);
    if (state.status !== 'playerveto' && state.status !== 'mapveto') break;
    if (state.turn === null) continue;
    await botVetoTurn(botOf.get(state[state.turn].captain._id) as Bot, matchId, state);
    await waitForVetoStep(request, matchId, state);
  }
  return { players, bots, matchId };
}
