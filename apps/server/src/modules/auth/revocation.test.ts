/**
 * Ending a session ends everything it holds (docs/contract.md §4): after a ban, a password change
 * or reset, or an account deletion, the old token answers 401 BAD_TOKEN, its open sockets hear
 * why and are disconnected, and the chat token handed out at login answers M_UNKNOWN_TOKEN on the
 * homeserver — the embedded one and, when SYNAPSE_URL + SYNAPSE_SHARED_SECRET are set, Synapse.
 * A banned player cannot sign in again while the ban runs: 403 BANNED with its reason and end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  nextEvent,
  type TestApp,
} from '../../../test/helpers';
import { hashPassword } from '../accounts/service';

const synapseEnv =
  process.env.SYNAPSE_URL && process.env.SYNAPSE_SHARED_SECRET
    ? {
        MATRIX_HOMESERVER_URL: process.env.SYNAPSE_URL,
        MATRIX_SHARED_SECRET: process.env.SYNAPSE_SHARED_SECRET,
        MATRIX_SERVER_NAME: process.env.SYNAPSE_SERVER_NAME ?? 'localhost',
      }
    : null;
const modes: { name: string; env: Record<string, string> }[] = [
  { name: 'embedded', env: {} },
  ...(synapseEnv ? [{ name: 'synapse', env: synapseEnv }] : []),
];

const PASSWORD = 'secret-pass';

describe.each(modes)('revoked sessions on the $name homeserver', ({ name, env }) => {
  let t: TestApp;
  let url: string;
  let hs: string;
  let admin: { id: string; token: string };
  let passwordHash: string;

  beforeAll(async () => {
    t = await createTestApp({ env });
    url = await t.listen();
    hs = name === 'embedded' ? url : env.MATRIX_HOMESERVER_URL;
    passwordHash = await hashPassword(PASSWORD);
    admin = await createTestUser(t.app, { role: 'ADMIN' });
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (email: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const profileStatus = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(token) })).statusCode;
  const whoami = async (accessToken: string) =>
    (await fetch(`${hs}/_matrix/client/v3/account/whoami`, { headers: bearer(accessToken) })).status;

  /** A player with a password, signed in once over HTTP: the session answer (token + matrix). */
  async function signedInPlayer() {
    const user = await createTestUser(t.app, { passwordHash });
    const res = await login(user.email);
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.matrix?.accessToken).toEqual(expect.any(String));
    expect(await whoami(session.matrix.accessToken)).toBe(200);
    return { user, token: session.token as string, matrix: session.matrix.accessToken as string };
  }

  /** Resolves with the events an open socket saw until the server disconnected it, in order. */
  function recordUntilDisconnect(socket: Awaited<ReturnType<typeof connectSocket>>) {
    const seen: string[] = [];
    socket.onAny((event: string, payload: unknown) =>
      seen.push(event === 'unauthorized' ? `unauthorized:${(payload as { msg: string }).msg}` : event),
    );
    return nextEvent<string>(socket, 'disconnect').then((reason) => ({ seen, reason }));
  }

  it('a ban tells the open tab, then ends its socket, token and chat token; sign-in is refused with the reason until it is lifted', async () => {
    const { user, token, matrix } = await signedInPlayer();
    const socket = await connectSocket(url, token);
    const ended = recordUntilDisconnect(socket);
    const update = nextEvent<{ ban: { reason: string; endsAt: number } | null }>(
      socket,
      'PRIVATE_MODERATION_UPDATE',
    );

    const ban = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/sanctions`,
      headers: bearer(admin.token),
      payload: { kind: 'ban', minutes: 120, reason: 'Griefing' },
    });
    expect(ban.statusCode).toBe(201);
    expect((await update).ban).toEqual({ reason: 'Griefing', endsAt: expect.any(Number) });
    const { seen, reason } = await ended;
    expect(seen).toEqual(['PRIVATE_MODERATION_UPDATE', 'unauthorized:BAD_TOKEN']);
    expect(reason).toBe('io server disconnect');

    const old = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(token) });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    expect(await whoami(matrix)).toBe(401);

    const refused = await login(user.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      errors: { msg: 'BANNED', ban: { reason: 'Griefing', endsAt: ban.json().endsAt } },
    });
    // A wrong password still says only that: the ban is told to whoever knows the password.
    expect((await login(user.email, 'wrong-pass')).json()).toEqual({ errors: { msg: 'WRONG_CREDENTIALS' } });

    const lifted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/sanctions/${ban.json()._id}/lift`,
      headers: bearer(admin.token),
      payload: { reason: 'Appeal accepted' },
    });
    expect(lifted.statusCode).toBe(200);
    const back = await login(user.email);
    expect(back.statusCode).toBe(200);
    expect(await profileStatus(back.json().token)).toBe(200);
    expect(await whoami(back.json().matrix.accessToken)).toBe(200);
    expect(await profileStatus(token)).toBe(401); // the lift gives no old session back
  });

  it('a mute ends no session', async () => {
    const { user, token, matrix } = await signedInPlayer();
    const mute = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/sanctions`,
      headers: bearer(admin.token),
      payload: { kind: 'mute', minutes: 30, reason: 'Spam' },
    });
    expect(mute.statusCode).toBe(201);
    expect(await profileStatus(token)).toBe(200);
    expect(await whoami(matrix)).toBe(200);
    expect((await login(user.email)).statusCode).toBe(200);
  });

  it('a password change ends the other sessions’ sockets and every chat token; the caller keeps its socket and gets chat credentials again', async () => {
    const here = await signedInPlayer();
    const elsewhere = await login(here.user.email);
    // Two sign-ins in the same second are still two sessions (a random jti in each token).
    expect(elsewhere.json().token).not.toBe(here.token);
    const elsewhereMatrix = elsewhere.json().matrix.accessToken as string;
    const socket = await connectSocket(url, elsewhere.json().token);
    const ended = recordUntilDisconnect(socket);
    const own = await connectSocket(url, here.token);
    const ownSaw: string[] = [];
    own.onAny((event: string) => ownSaw.push(event));

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/profile/changePassword',
      headers: bearer(here.token),
      payload: { oldPassword: PASSWORD, newPassword: 'changed-pass' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await ended).seen).toEqual(['unauthorized:BAD_TOKEN']);
    // The caller's own socket stays and signs in again with the fresh token.
    expect(own.connected).toBe(true);
    const again = nextEvent(own, 'authenticated');
    own.emit('authenticate', { key: changed.json().token });
    await again;
    expect(ownSaw).toEqual(['authenticated']);
    own.disconnect();
    expect(await whoami(here.matrix)).toBe(401);
    expect(await whoami(elsewhereMatrix)).toBe(401);
    // The tab that changed it keeps its session and gets chat credentials again.
    const fresh = changed.json().token as string;
    expect(await profileStatus(fresh)).toBe(200);
    const chat = await t.app.inject({ method: 'GET', url: '/api/chat/session', headers: bearer(fresh) });
    expect(chat.statusCode).toBe(200);
    expect(await whoami(chat.json().matrix.accessToken)).toBe(200);
    const relogin = await login(here.user.email, 'changed-pass');
    expect(await whoami(relogin.json().matrix.accessToken)).toBe(200);
  });

  it('deleting the account ends its chat token with the rest', async () => {
    const { user, token, matrix } = await signedInPlayer();
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(token),
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await profileStatus(token)).toBe(401);
    expect(await whoami(matrix)).toBe(401);
    expect((await login(user.email)).json()).toEqual({ errors: { msg: 'WRONG_CREDENTIALS' } });
  });

  it('GET /api/chat/session: 401 without a valid token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/chat/session', headers: bearer('nope') });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
  });
});
