/**
 * Accounts API: sign-up, login (lockout, rate limit), token refresh, verification, password reset,
 * profile and settings, the private user-update event, admin e-mails, and e-mail over real SMTP.
 * Every refusal shows its key and that nothing changed in the database.
 */
import type { AddressInfo } from 'node:net';
import * as argon2 from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  openTestDatabase,
  TEST_JWT_SECRET,
  type TestApp,
  unlockByDrop,
} from '../../../test/helpers';
import { MAX_FAILED_LOGINS } from './credentials';
import { pendingSignups, users } from './schema';

// The real argon2, with its password checks counted: how many login attempts reach the hash.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify), hash: vi.fn(real.hash) };
});
const hashChecks = () => vi.mocked(argon2.verify).mock.calls.length;

const clock = manualClock();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: {
      PUBLIC_URL: 'https://pug.example',
      ADMIN_EMAILS: 'boss@example.test,deputy@example.test,deputy2@example.test',
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const row = async (id: string) => (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const rowByEmail = async (email: string) =>
  (await t.app.ctx.db.select().from(users).where(eq(users.email, email)))[0];
const outbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).json()
    .docs as Array<{
    channel: string;
    to: string;
    subject: string;
    text: string;
  }>;
const linkIn = (text: string, kind: 'verify' | 'reset') => {
  const m = new RegExp(`https://pug\\.example/${kind}/([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${kind} link in: ${text}`);
  return m[1];
};
/** The test app's base URL, listening from the first call on. */
const serverUrl = async () => t.url || (await t.listen());
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const requestSignup = (email: string, extra: object = {}, headers: Record<string, string> = {}) =>
  post('/api/register', { name: 'Alice', email, password: 'secret1', ...extra }, headers);
/** Signs up and opens the mailed link, as a player does: returns the session of the new account. */
const register = async (email: string, extra: object = {}, headers: Record<string, string> = {}) => {
  const res = await requestSignup(email, extra, headers);
  expect(res.statusCode, res.body).toBe(202);
  const [mail] = await outbox(email.toLowerCase());
  const confirmed = await post('/api/verify', { id: linkIn(mail.text, 'verify') });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return confirmed.json().session as { token: string; user: { _id: string; role: string } };
};

describe('sign-up', () => {
  it('answers 202 "check your e-mail"; the mailed link (browser language) creates the verified account and signs it in', async () => {
    const res = await requestSignup(
      'Alice@Example.test',
      {},
      { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: true, email: 'alice@example.test' });
    // No account until the link is opened: logging in fails as for an unknown address.
    expect(await rowByEmail('alice@example.test')).toBeUndefined();
    const early = await post('/api/login', { email: 'alice@example.test', password: 'secret1' });
    expect(early.json()).toEqual({ errors: { msg: 'WRONG_CREDENTIALS' } });
    const [mail] = await outbox('alice@example.test');
    expect(mail).toMatchObject({ channel: 'email', subject: 'Bestätige dein openpug-Konto' });
    // Only the hash of the link id is stored.
    const id = linkIn(mail.text, 'verify');
    const pending = await t.app.ctx.db
      .select()
      .from(pendingSignups)
      .where(eq(pendingSignups.email, 'alice@example.test'));
    expect(pending).toHaveLength(1);
    expect(pending[0].idHash).not.toBe(id);
    // Sign-ups confirmed or expired are swept away by the next one.
    const stale = { name: 'x', passwordHash: 'x', locale: 'en', createdAt: new Date(0) };
    await t.app.ctx.db.insert(pendingSignups).values([
      {
        ...stale,
        idHash: 'expired',
        email: 'gone1@example.test',
        expiresAt: new Date(t.app.ctx.clock.now() - 1),
      },
      {
        ...stale,
        idHash: 'used',
        email: 'gone2@example.test',
        expiresAt: new Date(t.app.ctx.clock.now() + 60_000),
        usedAt: new Date(),
      },
    ]);
    expect(
      (await post('/api/register', { name: 'Sweeper', email: 'sweeper@example.test', password: 'secret1' }))
        .statusCode,
    ).toBe(202);
    const left = await t.app.ctx.db.select({ idHash: pendingSignups.idHash }).from(pendingSignups);
    expect(left.map((r) => r.idHash)).not.toContain('expired');
    expect(left.map((r) => r.idHash)).not.toContain('used');
    expect(left.map((r) => r.idHash)).toContain(pending[0].idHash);
    expect(pending[0].passwordHash).toMatch(/^\$argon2id\$/);
    const confirmed = await post('/api/verify', { id });
    expect(confirmed.statusCode).toBe(200);
    const body = confirmed.json();
    expect(body).toMatchObject({
      verified: true,
      session: {
        token: expect.any(String),
        expiresAt: clock.now() + 1440 * 60_000,
        matrix: expect.anything(), // filled by the chat module (setMatrixSessionProvider)
        user: {
          name: 'Alice',
          email: 'alice@example.test',
          verified: true,
          role: 'USER',
          locale: 'de',
          sound: 'retro.mp3',
          banner: 'ezpug',
          unlockedBanners: ['ezpug'],
          stats: { elo: 200 },
          steamId: null,
          teamSpeakId: null,
          discordId: null,
          unseenDropsCount: 0,
          whatsAppEnabled: false,
        },
      },
    });
    expect(body.session.user).not.toHaveProperty('passwordHash');
    const stored = await rowByEmail('alice@example.test');
    expect(stored.passwordHash).toBe(pending[0].passwordHash);
    // The session token works, and so does the password.
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: bearer(body.session.token),
    });
    expect(profile.json()._id).toBe(stored.id);
    expect((await post('/api/login', { email: 'alice@example.test', password: 'secret1' })).statusCode).toBe(
      200,
    );
    // The link works once.
    expect((await post('/api/verify', { id })).json()).toEqual({
      errors: { msg: 'NOT_FOUND_OR_ALREADY_VERIFIED' },
    });
  });

  it.each([
    [{ name: 'B', email: 'not-an-email', password: 'secret1' }, 'EMAIL_IS_NOT_VALID'],
    [{ name: 'B', email: 'b@example.test', password: '1234' }, 'PASSWORD_TOO_SHORT_MIN_5'],
    [{ name: '  ', email: 'b@example.test', password: 'secret1' }, 'IS_EMPTY'],
    [{ email: 'b@example.test', password: 'secret1' }, 'MISSING'],
    [
      { name: 'B', email: 'b@example.test', password: 'secret1', confirmPassword: 'other' },
      'PASSWORDS_DONT_MATCH',
    ],
  ])('refuses %j with %s and creates nothing', async (payload, key) => {
    const res = await post('/api/register', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: { msg: key } });
    expect(await rowByEmail('b@example.test')).toBeUndefined();
  });

  it('an existing address gets the same answer as a new one; its owner is mailed, nothing changes', async () => {
    const owner = await register('taken@example.test', {}, { 'accept-language': 'en' });
    const before = await rowByEmail('taken@example.test');
    const mailsBefore = (await outbox('taken@example.test')).length;
    const fresh = await requestSignup('fresh-one@example.test', { name: 'Other' });
    const taken = await requestSignup('TAKEN@example.test', { name: 'Other', password: 'other-pass' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json()).toEqual({ sent: true, email: 'taken@example.test' });
    expect(Object.keys(taken.json())).toEqual(Object.keys(fresh.json()));
    // The owner learns of the attempt, with a way to log in or reset the password; no link that
    // would change the account.
    const mails = await outbox('taken@example.test');
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails[0]).toMatchObject({
      channel: 'email',
      subject: 'Someone tried to sign up with your address',
    });
    expect(mails[0].text).toContain('https://pug.example/login');
    expect(mails[0].text).toContain('https://pug.example/forgot');
    expect(mails[0].text).not.toMatch(/\/verify\/|\/reset\//);
    expect(await rowByEmail('taken@example.test')).toEqual(before);
    // No new pending sign-up for the address (the owner's own, used one was swept away).
    const pending = await t.app.ctx.db
      .select()
      .from(pendingSignups)
      .where(eq(pendingSignups.email, 'taken@example.test'));
    expect(pending.filter((p) => p.usedAt === null)).toEqual([]);
    // The other password does not log in; the owner's still does.
    expect(
      (await post('/api/login', { email: 'taken@example.test', password: 'other-pass' })).statusCode,
    ).toBe(400);
    expect(
      (await post('/api/login', { email: 'taken@example.test', password: 'secret1' })).json().user._id,
    ).toBe(owner.user._id);
  });

  it('both answers take the same work: one password hash each', async () => {
    await register('same-work@example.test');
    const hashes = vi.mocked(argon2.hash);
    const before = hashes.mock.calls.length;
    await requestSignup('same-work@example.test');
    const afterTaken = hashes.mock.calls.length;
    await requestSignup('same-work-new@example.test');
    expect(afterTaken - before).toBe(1);
    expect(hashes.mock.calls.length - afterTaken).toBe(1);
  });

  it('a link opened after the address was taken meanwhile creates nothing', async () => {
    await requestSignup('race-signup@example.test', { name: 'First' });
    const [first] = await outbox('race-signup@example.test');
    await register('race-signup@example.test', { name: 'Second' });
    const res = await post('/api/verify', { id: linkIn(first.text, 'verify') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: { msg: 'NOT_FOUND_OR_ALREADY_VERIFIED' } });
    expect((await rowByEmail('race-signup@example.test')).name).toBe('Second');
  });

  it('announces user.created', async () => {
    const seen: string[] = [];
    t.app.ctx.bus.on('user.created', ({ userId }) => {
      seen.push(userId);
    });
    const session = await register('created@example.test');
    expect(seen).toContain(session.user._id);
  });
});

describe('ADMIN_EMAILS is a seed for verified addresses, applied once', () => {
  const login = (email: string) => post('/api/login', { email, password: 'secret1' });
  const verifyFromMail = async (email: string) => {
    const mails = await outbox(email);
    const id = linkIn(mails[mails.length - 1].text, 'verify');
    expect((await post('/api/verify', { id })).statusCode).toBe(200);
  };

  it('grants nothing for a listed address before its link is opened; the confirmed sign-up is ADMIN', async () => {
    await requestSignup('BOSS@example.test');
    expect(await rowByEmail('boss@example.test')).toBeUndefined();
    expect((await login('boss@example.test')).json()).toEqual({ errors: { msg: 'WRONG_CREDENTIALS' } });
    await verifyFromMail('boss@example.test');
    expect((await rowByEmail('boss@example.test')).role).toBe('ADMIN');
    expect((await login('boss@example.test')).json().user.role).toBe('ADMIN');
  });

  it('grants nothing for a listed address typed into the profile until that address is verified', async () => {
    const headers = bearer((await register('climber@example.test')).token);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile',
      headers,
      payload: { email: 'deputy@example.test' },
    });
    expect(changed.json()).toMatchObject({ email: 'deputy@example.test', role: 'USER', verified: false });
    expect((await login('deputy@example.test')).json().user.role).toBe('USER');
    expect((await rowByEmail('deputy@example.test')).role).toBe('USER');
  });

  it("never undoes an admin's demotion at the next login", async () => {
    const owner = await createTestUser(t.app, { role: 'ADMIN' });
    await register('deputy2@example.test');
    const deputy = await rowByEmail('deputy2@example.test');
    expect(deputy.role).toBe('ADMIN');
    const demoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${deputy.id}/role`,
      headers: bearer(owner.token),
      payload: { role: 'USER' },
    });
    expect(demoted.statusCode).toBe(200);
    expect((await login('deputy2@example.test')).json().user.role).toBe('USER');
    expect((await row(deputy.id)).role).toBe('USER');
  });
});

describe('e-mail verification', () => {
  /** Signs up and changes the e-mail: the new address gets a verification link. */
  const changedAddress = async (from: string, to: string) => {
    const session = await register(from);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile',
      headers: bearer(session.token),
      payload: { email: to },
    });
    expect(res.statusCode).toBe(200);
    return linkIn((await outbox(to))[0].text, 'verify');
  };

  it('verifies a changed address once with the link id, then NOT_FOUND_OR_ALREADY_VERIFIED', async () => {
    const id = await changedAddress('verify-old@example.test', 'verify@example.test');
    expect((await rowByEmail('verify@example.test')).verified).toBe(false);
    const ok = await post('/api/verify', { id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ verified: true });
    expect((await rowByEmail('verify@example.test')).verified).toBe(true);
    const again = await post('/api/verify', { id });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ errors: { msg: 'NOT_FOUND_OR_ALREADY_VERIFIED' } });
  });

  it('refuses an unknown id and an expired link (sign-up or changed address), changing nothing', async () => {
    const changeId = await changedAddress('late-old@example.test', 'late@example.test');
    await requestSignup('late-signup@example.test');
    const signupId = linkIn((await outbox('late-signup@example.test'))[0].text, 'verify');
    expect((await post('/api/verify', { id: 'nope' })).json()).toEqual({
      errors: { msg: 'NOT_FOUND_OR_ALREADY_VERIFIED' },
    });
    expect((await post('/api/verify', {})).json()).toEqual({ errors: { msg: 'MISSING' } });
    clock.advance(8 * 24 * 60 * 60_000);
    try {
      for (const id of [changeId, signupId]) expect((await post('/api/verify', { id })).statusCode).toBe(404);
      expect((await rowByEmail('late@example.test')).verified).toBe(false);
      expect(await rowByEmail('late-signup@example.test')).toBeUndefined();
    } finally {
      clock.advance(-8 * 24 * 60 * 60_000);
    }
  });
});

describe('login', () => {
  it('answers {user, token, expiresAt, matrix} and the token refreshes', async () => {
    await register('login@example.test');
    const res = await post('/api/login', { email: 'LOGIN@example.test', password: 'secret1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      token: expect.any(String),
      matrix: expect.anything(), // filled by the chat module (setMatrixSessionProvider)
      user: { email: 'login@example.test' },
    });
    clock.advance(60_000);
    const refreshed = await t.app.inject({ method: 'GET', url: '/api/token', headers: bearer(body.token) });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().expiresAt).toBe(clock.now() + 1440 * 60_000);
    expect(refreshed.json().token).not.toBe(body.token);
  });

  it('answers an unknown e-mail exactly like a wrong password: 400 WRONG_CREDENTIALS, after one hash check', async () => {
    await register('wrong@example.test');
    // A Steam-only account with an e-mail has no password: the same answer, the same work.
    const steamOnly = await createTestUser(t.app, { email: 'steam-only@example.test', passwordHash: null });
    const attempts = [
      { email: 'nobody@example.test', password: 'secret1' },
      { email: 'wrong@example.test', password: 'nope!' },
      { email: 'steam-only@example.test', password: 'secret1' },
    ];
    for (const attempt of attempts) {
      const checks = hashChecks();
      const res = await post('/api/login', attempt);
      expect(res.statusCode, attempt.email).toBe(400);
      expect(res.json(), attempt.email).toEqual({ errors: { msg: 'WRONG_CREDENTIALS' } });
      expect(hashChecks() - checks, attempt.email).toBe(1);
    }
    expect(await rowByEmail('nobody@example.test')).toBeUndefined();
    expect((await row(steamOnly.id)).passwordHash).toBeNull();
    expect((await post('/api/login', { email: 'wrong@example.test' })).json()).toEqual({
      errors: { msg: 'MISSING' },
    });
    expect((await post('/api/login', { email: 'x', password: 'y' })).json()).toEqual({
      errors: { msg: 'EMAIL_IS_NOT_VALID' },
    });
  });

  it('blocks the account for 2 hours after 5 wrong passwords, even for the right one', async () => {
    await register('lock@example.test');
    for (let i = 0; i < 4; i++) {
      expect(
        (await post('/api/login', { email: 'lock@example.test', password: 'bad-pass' })).json().errors.msg,
      ).toBe('WRONG_CREDENTIALS');
    }
    const fifth = await post('/api/login', { email: 'lock@example.test', password: 'bad-pass' });
    expect(fifth.statusCode).toBe(403);
    expect(fifth.json()).toEqual({ errors: { msg: 'BLOCKED_USER' } });
    const right = await post('/api/login', { email: 'lock@example.test', password: 'secret1' });
    expect(right.json()).toEqual({ errors: { msg: 'BLOCKED_USER' } });
    clock.advance(2 * 60 * 60_000 - 1000);
    expect((await post('/api/login', { email: 'lock@example.test', password: 'secret1' })).statusCode).toBe(
      403,
    );
    clock.advance(2000);
    expect((await post('/api/login', { email: 'lock@example.test', password: 'secret1' })).statusCode).toBe(
      200,
    );
    const r = await rowByEmail('lock@example.test');
    expect(r.failedLogins).toBe(0);
    expect(r.blockedUntil).toBeNull();
  });

  it('counts attempts atomically: of 30 concurrent wrong passwords at most 5 reach the hash', async () => {
    await register('race@example.test');
    const before = await rowByEmail('race@example.test');
    const checks = hashChecks();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/login', { email: 'race@example.test', password: 'bad-pass' }),
      ),
    );
    expect(hashChecks() - checks).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    const keys = answers.map((a) => `${a.statusCode} ${a.json().errors?.msg}`);
    const wrong = keys.filter((k) => k === '400 WRONG_CREDENTIALS');
    expect(wrong.length).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    expect(keys.filter((k) => k === '403 BLOCKED_USER')).toHaveLength(30 - wrong.length);
    const blocked = await rowByEmail('race@example.test');
    expect(blocked.blockedUntil?.getTime()).toBe(clock.now() + 2 * 60 * 60_000);
    expect(blocked.passwordHash).toBe(before.passwordHash);
    expect(blocked.sessionGeneration).toBe(before.sessionGeneration);
    // Even the right password is refused now, without a hash check.
    const right = hashChecks();
    expect((await post('/api/login', { email: 'race@example.test', password: 'secret1' })).json()).toEqual({
      errors: { msg: 'BLOCKED_USER' },
    });
    expect(hashChecks()).toBe(right);

    // A password reset from the e-mail unlocks the account.
    await post('/api/forgot', { email: 'race@example.test' });
    const mails = await outbox('race@example.test');
    const id = linkIn(mails[0].text, 'reset');
    expect(
      (await post('/api/reset', { id, password: 'after-race', confirmPassword: 'after-race' })).statusCode,
    ).toBe(200);
    const unlocked = await post('/api/login', { email: 'race@example.test', password: 'after-race' });
    expect(unlocked.statusCode).toBe(200);
    const r = await rowByEmail('race@example.test');
    expect(r.failedLogins).toBe(0);
    expect(r.blockedUntil).toBeNull();
  });

  it('a successful login resets the failure count', async () => {
    await register('reset-count@example.test');
    for (let i = 0; i < 4; i++)
      await post('/api/login', { email: 'reset-count@example.test', password: 'bad-pass' });
    await post('/api/login', { email: 'reset-count@example.test', password: 'secret1' });
    expect((await rowByEmail('reset-count@example.test')).failedLogins).toBe(0);
  });
});

describe('tokens', () => {
  it('every protected call needs a valid token; a token of a deleted user is a 401', async () => {
    const user = await createTestUser(t.app);
    for (const [method, url] of [
      ['GET', '/api/token'],
      ['GET', '/api/profile'],
      ['PATCH', '/api/profile'],
      ['POST', '/api/profile/changePassword'],
      ['GET', '/api/profile/teamSpeakUsers'],
      ['POST', '/api/profile/linkTeamSpeak'],
      ['POST', '/api/profile/teamSpeakCode'],
      ['POST', '/api/profile/unlinkTeamSpeak'],
      ['POST', '/api/steam'],
    ] as const) {
      const none = await t.app.inject({ method, url, payload: {} });
      expect(none.statusCode, `${method} ${url}`).toBe(401);
      const bad = await t.app.inject({ method, url, payload: {}, headers: bearer(`${user.token}x`) });
      expect(bad.statusCode, `${method} ${url}`).toBe(401);
      expect(bad.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    }
    await t.app.ctx.db.delete(users).where(eq(users.id, user.id));
    for (const url of ['/api/profile', '/api/token']) {
      const gone = await t.app.inject({ method: 'GET', url, headers: bearer(user.token) });
      expect(gone.statusCode).toBe(401);
    }
  });

  it('a token from before session generations (no gen claim) stays valid until the first password change', async () => {
    const user = await createTestUser(t.app);
    const legacy = await new SignJWT({ typ: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt(Math.floor(clock.now() / 1000))
      .setExpirationTime(Math.floor(clock.now() / 1000) + 3600)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const profile = () => t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(legacy) });
    expect((await profile()).statusCode).toBe(200);
    await t.app.ctx.db.update(users).set({ sessionGeneration: 1 }).where(eq(users.id, user.id));
    expect((await profile()).json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
  });

  it('an expired token is a 401', async () => {
    const user = await createTestUser(t.app);
    clock.advance(1440 * 60_000 + 1000);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/token', headers: bearer(user.token) });
      expect(res.statusCode).toBe(401);
    } finally {
      clock.advance(-(1440 * 60_000 + 1000));
    }
  });
});

describe('password reset', () => {
  it('answers the same for unknown addresses and sends nothing', async () => {
    const res = await post('/api/forgot', { email: 'ghost@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, email: 'ghost@example.test' });
    expect(await outbox('ghost@example.test')).toEqual([]);
    expect((await post('/api/forgot', { email: 'bad' })).json()).toEqual({
      errors: { msg: 'EMAIL_IS_NOT_VALID' },
    });
  });

  it('resets once with the link; the link cannot be used twice; old password stops working', async () => {
    await register('forgot@example.test', {}, { 'accept-language': 'en' });
    const res = await post('/api/forgot', { email: 'forgot@example.test' });
    expect(res.json()).toEqual({ sent: true, email: 'forgot@example.test' });
    const [mail] = await outbox('forgot@example.test');
    expect(mail.subject).toBe('Reset your openpug password');
    const id = linkIn(mail.text, 'reset');
    const before = await rowByEmail('forgot@example.test');

    const mismatch = await post('/api/reset', { id, password: 'newpass1', confirmPassword: 'other' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({ errors: { msg: 'PASSWORDS_DONT_MATCH' } });
    const short = await post('/api/reset', { id, password: 'abc', confirmPassword: 'abc' });
    expect(short.json()).toEqual({ errors: { msg: 'PASSWORD_TOO_SHORT_MIN_5' } });
    expect((await rowByEmail('forgot@example.test')).passwordHash).toBe(before.passwordHash);

    const ok = await post('/api/reset', { id, password: 'newpass1', confirmPassword: 'newpass1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    const after = await rowByEmail('forgot@example.test');

    const twice = await post('/api/reset', { id, password: 'third-pass', confirmPassword: 'third-pass' });
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toEqual({ errors: { msg: 'NOT_FOUND_OR_ALREADY_USED' } });
    expect((await rowByEmail('forgot@example.test')).passwordHash).toBe(after.passwordHash);

    expect((await post('/api/login', { email: 'forgot@example.test', password: 'secret1' })).statusCode).toBe(
      400,
    );
    expect(
      (await post('/api/login', { email: 'forgot@example.test', password: 'newpass1' })).statusCode,
    ).toBe(200);
  });

  it('a reset link expires after one hour', async () => {
    await register('expire@example.test');
    await post('/api/forgot', { email: 'expire@example.test' });
    const id = linkIn((await outbox('expire@example.test'))[0].text, 'reset');
    const before = await rowByEmail('expire@example.test');
    clock.advance(60 * 60_000 + 1);
    const res = await post('/api/reset', { id, password: 'newpass1', confirmPassword: 'newpass1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: { msg: 'NOT_FOUND_OR_ALREADY_USED' } });
    expect(await rowByEmail('expire@example.test')).toEqual(before);
  });
});

describe('profile', () => {
  it('shows every Profile field with rank by Elo', async () => {
    const top = await createTestUser(t.app, { elo: 5000 });
    const second = await createTestUser(t.app, { elo: 4000 });
    const res = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(second.token) });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(
      [
        '_id',
        'avatar',
        'banner',
        'csgoId',
        'discordId',
        'email',
        'locale',
        'name',
        'phone',
        'rank',
        'role',
        'sound',
        'stats',
        'steamId',
        'steamUrl',
        'teamSpeakId',
        'teamSpeakName',
        'unlockedBanners',
        'unseenDropsCount',
        'verified',
        'whatsAppEnabled',
      ].sort(),
    );
    expect(res.json().rank).toBe(2);
    const first = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(top.token) });
    expect(first.json().rank).toBe(1);
  });

  it('saves name, sound, banner and language, and pushes the changed fields to the own sockets', async () => {
    const user = await createTestUser(t.app, { unlockedBanners: ['ezpug', 'gold'] });
    await unlockByDrop(t.app, user, { unlocksSound: 'chime.mp3' });
    const url = await serverUrl();
    const socket = await connectSocket(url, user.token);
    const renamed: unknown[] = [];
    t.app.ctx.bus.on('user.renamed', (p) => {
      renamed.push(p);
    });
    try {
      const event = nextEvent(socket, 'privateUserUpdate');
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/profile',
        headers: bearer(user.token),
        payload: { name: 'Neo', sound: 'chime.mp3', banner: 'gold', locale: 'de' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Neo', sound: 'chime.mp3', banner: 'gold', locale: 'de' });
      expect(await event).toEqual({ name: 'Neo', sound: 'chime.mp3', banner: 'gold', locale: 'de' });
      expect(renamed).toContainEqual({ userId: user.id, name: 'Neo' });
    } finally {
      socket.disconnect();
    }
  });

  it('refuses a locked banner, an empty name and unknown fields, changing nothing', async () => {
    const user = await createTestUser(t.app);
    const before = await row(user.id);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/profile', headers: bearer(user.token), payload });
    const locked = await patch({ banner: 'gold', name: 'X' });
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toEqual({ errors: { msg: 'BANNER_NOT_UNLOCKED' } });
    expect((await patch({ name: '' })).json()).toEqual({ errors: { msg: 'IS_EMPTY' } });
    expect((await patch({ sound: '../../etc/passwd' })).json()).toEqual({ errors: { msg: 'INVALID_INPUT' } });
    expect((await patch({ role: 'ADMIN' })).statusCode).toBe(422);
    expect((await patch({ elo: 9999 })).statusCode).toBe(422);
    expect(await row(user.id)).toEqual(before);
  });

  it('refuses a locked or unknown sound with 403 SOUND_NOT_UNLOCKED, changing nothing', async () => {
    const user = await createTestUser(t.app);
    // Another player's unlock does not count for this one.
    await unlockByDrop(t.app, await createTestUser(t.app), { unlocksSound: 'blip.mp3' });
    const before = await row(user.id);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/profile', headers: bearer(user.token), payload });
    for (const sound of ['blip.mp3', 'chime.mp3', 'beep.mp3']) {
      const res = await patch({ sound, name: 'Changed' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: { msg: 'SOUND_NOT_UNLOCKED' } });
    }
    expect(await row(user.id)).toEqual(before);
  });

  it('saves a sound once a drop unlocked it, and the default sound always', async () => {
    const user = await createTestUser(t.app);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/profile', headers: bearer(user.token), payload });
    expect((await patch({ sound: 'blip.mp3' })).statusCode).toBe(403);
    await unlockByDrop(t.app, user, { unlocksSound: 'blip.mp3' });
    const unlocked = await patch({ sound: 'blip.mp3' });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().sound).toBe('blip.mp3');
    expect((await row(user.id)).sound).toBe('blip.mp3');
    // Still locked: chime. The default needs no unlock.
    expect((await patch({ sound: 'chime.mp3' })).json()).toEqual({ errors: { msg: 'SOUND_NOT_UNLOCKED' } });
    const back = await patch({ sound: 'retro.mp3' });
    expect(back.statusCode).toBe(200);
    expect((await row(user.id)).sound).toBe('retro.mp3');
    expect((await patch({ sound: 'retro.mp3', name: 'Same' })).statusCode).toBe(200);
  });

  it('an e-mail change needs re-verification; a taken e-mail is refused', async () => {
    const other = await createTestUser(t.app);
    const user = await createTestUser(t.app, { verified: true, locale: 'de' });
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/profile', headers: bearer(user.token), payload });
    const before = await row(user.id);
    const taken = await patch({ email: other.email.toUpperCase(), name: 'Changed' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ errors: { msg: 'EMAIL_ALREADY_EXISTS' } });
    expect((await patch({ email: 'nope' })).json()).toEqual({ errors: { msg: 'EMAIL_IS_NOT_VALID' } });
    expect(await row(user.id)).toEqual(before);

    const res = await patch({ email: 'New@Example.test' });
    expect(res.json()).toMatchObject({ email: 'new@example.test', verified: false });
    const [mail] = await outbox('new@example.test');
    expect(mail.subject).toBe('Bestätige deine neue E-Mail-Adresse');
    const id = linkIn(mail.text, 'verify');
    expect((await post('/api/verify', { id })).json()).toEqual({ verified: true });
    expect((await row(user.id)).verified).toBe(true);
  });

  it('changes the password with the current one; a wrong current password changes nothing', async () => {
    const reg = await register('pw@example.test');
    const change = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/profile/changePassword',
        headers: bearer(reg.token),
        payload,
      });
    const before = await rowByEmail('pw@example.test');
    const wrong = await change({ oldPassword: 'nope!', newPassword: 'brandnew' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: { msg: 'WRONG_PASSWORD' } });
    expect((await change({ oldPassword: 'secret1', newPassword: 'abc' })).json()).toEqual({
      errors: { msg: 'PASSWORD_TOO_SHORT_MIN_5' },
    });
    expect((await change({ oldPassword: 'secret1' })).json()).toEqual({ errors: { msg: 'MISSING' } });
    expect(await rowByEmail('pw@example.test')).toEqual(before);
    const ok = await change({ oldPassword: 'secret1', newPassword: 'brandnew' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      ok: true,
      token: expect.any(String),
      expiresAt: clock.now() + 1440 * 60_000,
    });
    expect((await post('/api/login', { email: 'pw@example.test', password: 'brandnew' })).statusCode).toBe(
      200,
    );
  });
});

describe('sessions end at a password change or reset', () => {
  const profileWith = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(token) });
  /** The socket sign-in answer for a token: 'authenticated' or the refusal key. */
  const socketSignIn = async (url: string, token: string) => {
    const socket = await connectSocket(url);
    try {
      const answer = Promise.race([
        nextEvent(socket, 'authenticated').then(() => 'authenticated'),
        nextEvent<{ msg: string }>(socket, 'unauthorized').then((e) => e.msg),
      ]);
      socket.emit('authenticate', { key: token });
      return await answer;
    } finally {
      socket.disconnect();
    }
  };
  /** Every call an old token might still make is a 401 BAD_TOKEN that changes nothing. */
  const expectSignedOut = async (userId: string, token: string, url: string) => {
    const before = await row(userId);
    for (const res of [
      await profileWith(token),
      await t.app.inject({ method: 'GET', url: '/api/token', headers: bearer(token) }),
      await t.app.inject({
        method: 'PATCH',
        url: '/api/profile',
        headers: bearer(token),
        payload: { name: 'Hijacked' },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/profile/changePassword',
        headers: bearer(token),
        payload: { oldPassword: 'whatever', newPassword: 'hijacked' },
      }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    }
    expect(await socketSignIn(url, token)).toBe('BAD_TOKEN');
    expect(await row(userId)).toEqual(before);
  };

  it('a reset signs out every earlier session, on HTTP and at socket sign-in; a new login works', async () => {
    const url = await serverUrl();
    const signup = await register('revoke-reset@example.test');
    const other = (
      await post('/api/login', { email: 'revoke-reset@example.test', password: 'secret1' })
    ).json();
    expect((await profileWith(signup.token)).statusCode).toBe(200);
    expect(await socketSignIn(url, other.token)).toBe('authenticated');

    await post('/api/forgot', { email: 'revoke-reset@example.test' });
    const id = linkIn(
      (await outbox('revoke-reset@example.test')).find((m) => m.text.includes('/reset/'))!.text,
      'reset',
    );
    expect(
      (await post('/api/reset', { id, password: 'fresh-pass', confirmPassword: 'fresh-pass' })).statusCode,
    ).toBe(200);

    for (const old of [signup.token, other.token]) await expectSignedOut(signup.user._id, old, url);
    const fresh = await post('/api/login', { email: 'revoke-reset@example.test', password: 'fresh-pass' });
    expect(fresh.statusCode).toBe(200);
    expect((await profileWith(fresh.json().token)).statusCode).toBe(200);
    expect(await socketSignIn(url, fresh.json().token)).toBe('authenticated');
  });

  it('a change signs out the other sessions and hands the caller a fresh token', async () => {
    const url = await serverUrl();
    const here = await register('revoke-change@example.test');
    const elsewhere = (
      await post('/api/login', { email: 'revoke-change@example.test', password: 'secret1' })
    ).json();
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/profile/changePassword',
      headers: bearer(here.token),
      payload: { oldPassword: 'secret1', newPassword: 'changed-pass' },
    });
    expect(changed.statusCode).toBe(200);
    const { token } = changed.json();

    for (const old of [here.token, elsewhere.token]) await expectSignedOut(here.user._id, old, url);
    expect((await profileWith(token)).statusCode).toBe(200);
    expect(await socketSignIn(url, token)).toBe('authenticated');
    const refreshed = await t.app.inject({ method: 'GET', url: '/api/token', headers: bearer(token) });
    expect(refreshed.statusCode).toBe(200);
    expect((await profileWith(refreshed.json().token)).statusCode).toBe(200);
    const login = await post('/api/login', { email: 'revoke-change@example.test', password: 'changed-pass' });
    expect((await profileWith(login.json().token)).statusCode).toBe(200);
  });

  it('a refused change (wrong current password) keeps every session', async () => {
    const user = await register('keep-sessions@example.test');
    const before = await row(user.user._id);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/profile/changePassword',
      headers: bearer(user.token),
      payload: { oldPassword: 'not-it', newPassword: 'changed-pass' },
    });
    expect(wrong.json()).toEqual({ errors: { msg: 'WRONG_PASSWORD' } });
    expect(await row(user.user._id)).toEqual(before);
    expect((await profileWith(user.token)).statusCode).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 TOO_MANY_REQUESTS after RATE_LIMIT_PER_MIN calls per minute and IP', async () => {
    const limited = await createTestApp({ clock, env: { RATE_LIMIT_PER_MIN: '3' } });
    try {
      const call = () =>
        limited.app.inject({ method: 'POST', url: '/api/forgot', payload: { email: 'x@example.test' } });
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
      const over = await call();
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ errors: { msg: 'TOO_MANY_REQUESTS' } });
      // Another bucket is independent; a new minute resets.
      const login = await limited.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'x@example.test', password: 'whatever' },
      });
      expect(login.statusCode).toBe(400);
      clock.advance(60_000);
      expect((await call()).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits a client on the internet by its own address, whatever X-Forwarded-For it sends', async () => {
    const limited = await createTestApp({ clock, env: { RATE_LIMIT_PER_MIN: '2' } });
    try {
      const call = (forged: string, remoteAddress = '203.0.113.9') =>
        limited.app.inject({
          method: 'POST',
          url: '/api/forgot',
          payload: { email: 'z@example.test' },
          headers: { 'x-forwarded-for': forged },
          remoteAddress,
        });
      expect((await call('198.51.100.1')).statusCode).toBe(200);
      expect((await call('198.51.100.2')).statusCode).toBe(200);
      expect((await call('198.51.100.3')).statusCode).toBe(429);
      // Behind a proxy on the private network, the address the proxy adds is the client's.
      expect((await call('198.51.100.4', '10.0.0.2')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts the calls of all instances against one limit (shared database)', async () => {
    const database = await openTestDatabase();
    const env = { RATE_LIMIT_PER_MIN: '3' };
    const one = await createTestApp({ clock, env, database });
    const two = await createTestApp({ clock, env, database });
    try {
      const forgot = (t: TestApp) =>
        t.app.inject({ method: 'POST', url: '/api/forgot', payload: { email: 'y@example.test' } });
      expect((await forgot(one)).statusCode).toBe(200);
      expect((await forgot(two)).statusCode).toBe(200);
      expect((await forgot(one)).statusCode).toBe(200);
      expect((await forgot(two)).statusCode).toBe(429);
      expect((await forgot(one)).statusCode).toBe(429);
      clock.advance(60_000);
      expect((await forgot(two)).statusCode).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await database.dispose();
    }
  });
});

describe('SMTP', () => {
  it('sends the verification e-mail through a real SMTP server, retrying a refusal in the background', async () => {
    const received: string[] = [];
    let refusals = 1; // the first delivery is refused as a busy server would (421), the next taken
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => {
          data += c.toString();
        });
        stream.on('end', () => {
          if (refusals-- > 0)
            return callback(Object.assign(new Error('try again later'), { responseCode: 421 }));
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const app = await createTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        PUBLIC_URL: 'https://pug.example',
        MAIL_FROM: 'pug <pug@example.test>',
        NOTIFY_RETRY_MS: '50',
      },
    });
    try {
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { name: 'Smtp', email: 'smtp@example.test', password: 'secret1' },
      });
      expect(res.statusCode).toBe(202);
      await expect.poll(() => received.length).toBe(1);
      const raw = received[0].replace(/=\r?\n/g, '');
      expect(raw).toMatch(/^To: smtp@example\.test/m);
      expect(raw).toMatch(/^Subject: Verify your openpug account/m);
      expect(raw).toMatch(/https:\/\/pug\.example\/verify\/[A-Za-z0-9_-]+/);
      // Nothing lands in the dev outbox when SMTP is configured.
      const out = await app.app.inject({ method: 'GET', url: '/api/dev/outbox?to=smtp@example.test' });
      expect(out.json().docs).toEqual([]);
    } finally {
      await app.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

describe('dev tools', () => {
  it('are off in production', async () => {
    // Production refuses DEV_TOOLS=true at start (config.test.ts); unset, they are off.
    const prod = await createTestApp({
      env: {
        NODE_ENV: 'production',
        JWT_SECRET: 'production-secret-that-is-at-least-32-characters',
        PUBLIC_URL: 'https://pug.example',
        SMTP_URL: 'smtp://127.0.0.1:1',
        GAME_SERVER_PROVIDER: 'simulator',
        VOICE_SERVER_PROVIDER: 'simulator',
      },
    });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      expect(
        (await prod.app.inject({ method: 'POST', url: '/api/dev/voice/identities', payload: { name: 'x' } }))
          .statusCode,
      ).toBe(404);
    } finally {
      await prod.close();
    }
  });

  it('the outbox is readable from loopback or by an admin, never by an anonymous remote client', async () => {
    await register('remote@example.test');
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const player = await createTestUser(t.app);
    for (const url of ['/api/dev/outbox?to=remote@example.test', '/dev/outbox?to=remote@example.test']) {
      const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url, remoteAddress, headers });
      const anonymous = await get('203.0.113.9');
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json()).toEqual({ errors: { msg: 'UNAUTHORIZED' } });
      expect(anonymous.body).not.toContain('remote@example.test');
      // A forged X-Forwarded-For from a client on the internet does not make it loopback.
      const forged = await get('203.0.113.9', { 'x-forwarded-for': '127.0.0.1' });
      expect(forged.statusCode, url).toBe(401);
      const asPlayer = await get('203.0.113.9', bearer(player.token));
      expect(asPlayer.statusCode, url).toBe(403);
      expect(asPlayer.json()).toEqual({ errors: { msg: 'UNAUTHORIZED' } });
      // A loopback proxy forwarding a remote client: the client's address counts.
      expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode, url).toBe(401);
      for (const allowed of [
        await get('203.0.113.9', bearer(admin.token)),
        await get('127.0.0.1'),
        await get('::1'),
        await get('::ffff:127.0.0.1'),
      ]) {
        expect(allowed.statusCode, url).toBe(200);
        expect(allowed.body).toContain('remote@example.test');
      }
    }
  });

  it('the /dev/outbox page lists messages with clickable links', async () => {
    await register('page@example.test');
    const res = await t.app.inject({ method: 'GET', url: '/dev/outbox?to=page@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/<a href="https:\/\/pug\.example\/verify\//);
  });
});
