/**
 * The HTTP guard: the account row the token's session check reads is the request's user, so an
 * authenticated call reads its account once, where it had read it three times (issue 20 target 5,
 * bench/RESULTS.md session 25).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestApp } from '../../../test/helpers';
import { users } from '../../db/schema';

describe('the auth guard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The statements the app's database was given while `fn` ran (both engines: `$client.query`). */
  async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
    const client = (t.app.ctx.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
      .$client;
    const spy = vi.spyOn(client, 'query');
    try {
      await fn();
      return spy.mock.calls.map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text));
    } finally {
      spy.mockRestore();
    }
  }

  it('reads the account once for an authenticated call, and the route answers from that row', async () => {
    const user = await createTestUser(t.app, { name: 'once-read' });
    let body: { name?: string } = {};
    const statements = await statementsDuring(async () => {
      const res = await t.app.inject({ url: '/api/profile', headers: bearer(user.token) });
      expect(res.statusCode).toBe(200);
      body = res.json();
    });
    expect(body.name).toBe('once-read');
    expect(statements.filter((s) => /from "users" where/.test(s))).toHaveLength(1);
  });

  it('answers 401 BAD_TOKEN for a valid token of a deleted account, 401 UNAUTHORIZED without a token', async () => {
    const user = await createTestUser(t.app);
    await t.app.ctx.db.delete(users).where(eq(users.id, user.id));
    const gone = await t.app.inject({ url: '/api/profile', headers: bearer(user.token) });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    const none = await t.app.inject({ url: '/api/profile' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ errors: { msg: 'UNAUTHORIZED' } });
  });
});
