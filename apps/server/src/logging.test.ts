/**
 * Logs without secrets: a whole account journey (sign-up → verification mail → opening the link →
 * verify → forgot password → reset → login → signed-in calls) with every log line captured at the
 * most verbose level. None of the passwords, e-mail addresses, one-time ids, links or session tokens
 * may appear in any line; every HTTP request line carries a request id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_JWT_SECRET, type TestDatabase, testConfig } from '../test/helpers';
import { type AppInstance, buildApp } from './app';
import { loggableUrl } from './logging';
import { createTokens } from './modules/auth/tokens';
import { listOutbox } from './modules/mail/mailer';

describe('logs without secrets', () => {
  const lines: string[] = [];
  let app: AppInstance;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    app = await buildApp(
      {
        config: testConfig({ LOG_LEVEL: 'trace', PUBLIC_URL: 'https://pug.example' }),
        database,
        db: database.db,
        tokens: createTokens(TEST_JWT_SECRET),
        clock: { now: () => Date.now() },
        version: '1.2.3',
      },
      { logger: { stream: { write: (line: string) => lines.push(line) } }, webDist: '/nonexistent-web-dist' },
    );
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  it('the account journey logs no password, address, link, id or token; each request line has its id', async () => {
    const email = 'Log.Secret.Person@example.test';
    const password = 'first-Password-4711';
    const newPassword = 'second-Password-0815';
    const secrets: string[] = [email, email.toLowerCase(), password, newPassword];

    const register = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { name: 'Log Person', email, password, confirmPassword: password },
    });
    expect(register.statusCode).toBe(202);

    const linkOf = async (kind: 'verify' | 'reset') => {
      const mails = await listOutbox(app.ctx.db, email.toLowerCase());
      const match = mails
        .map((m) => new RegExp(`https://pug\\.example/${kind}/([A-Za-z0-9_-]+)`).exec(m.text))
        .find(Boolean);
      if (!match) throw new Error(`no ${kind} mail`);
      secrets.push(match[0], match[1]);
      return { link: match[0], id: match[1] };
    };

    const verify = await linkOf('verify');
    // The browser opens the link (the web app's route), then the app posts the id: the account
    // now exists and is signed in.
    await app.inject({ method: 'GET', url: `/verify/${verify.id}`, headers: { accept: 'text/html' } });
    const confirmed = await app.inject({ method: 'POST', url: '/api/verify', payload: { id: verify.id } });
    expect(confirmed.json()).toMatchObject({ verified: true, session: { token: expect.any(String) } });
    secrets.push(confirmed.json().session.token);

    expect((await app.inject({ method: 'POST', url: '/api/forgot', payload: { email } })).statusCode).toBe(
      200,
    );
    const reset = await linkOf('reset');
    await app.inject({
      method: 'GET',
      url: `/reset/${reset.id}?from=mail`,
      headers: { accept: 'text/html' },
    });
    const resetAnswer = await app.inject({
      method: 'POST',
      url: '/api/reset',
      payload: { id: reset.id, password: newPassword, confirmPassword: newPassword },
    });
    expect(resetAnswer.statusCode).toBe(200);

    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: newPassword },
    });
    expect(login.statusCode).toBe(200);
    const token: string = login.json().token;
    secrets.push(token);
    const profile = await app.inject({
      method: 'GET',
      url: `/api/profile?access_token=${token}`,
      headers: { authorization: `Bearer ${token}`, cookie: `session=${token}` },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A failing login logs nothing of what was tried either.
    await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'wrong-guess-123' } });
    secrets.push('wrong-guess-123');

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    // The mail was logged (at info), without its content.
    expect(log).toContain('dev outbox: e-mail stored');
    for (const secret of secrets) expect(log, `a log line contains ${secret}`).not.toContain(secret);
    expect(log).not.toMatch(/pug\.example\/(verify|reset)\/[A-Za-z0-9_-]{8,}/);

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = parsed.filter((l) => l.req || l.res || /request/.test(String(l.msg)));
    // Each inject logs an incoming and a completed line.
    expect(requestLines.length).toBeGreaterThanOrEqual(2 * 9);
    for (const line of requestLines) expect(line.reqId, JSON.stringify(line)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines.find((l) => l.req)?.req).toEqual({
      method: 'POST',
      url: '/api/register',
      remoteAddress: '127.0.0.1',
    });
    // The masked form of the opened link is what the log shows.
    expect(log).toContain('"/verify/[redacted]"');
    expect(log).toContain('"/reset/[redacted]"');
  });

  it('a logged request keeps its path, without the query or a one-time id', () => {
    expect(loggableUrl('/api/matches/abc?x=1')).toBe('/api/matches/abc');
    expect(loggableUrl('/verify/abcdef')).toBe('/verify/[redacted]');
    expect(loggableUrl('/RESET/abcdef/more#x')).toBe('/RESET/[redacted]/more');
    expect(loggableUrl(undefined)).toBe('');
  });

  it('redacts authorization and cookie headers if they are ever logged', () => {
    const before = lines.length;
    app.log.info({ req: { headers: { authorization: 'Bearer abc', cookie: 'a=b' } } }, 'headers');
    app.log.info({ headers: { authorization: 'Bearer abc', cookie: 'a=b' } }, 'headers');
    const out = lines.slice(before).join('');
    expect(out).not.toContain('Bearer abc');
    expect(out).not.toContain('a=b');
  });
});
