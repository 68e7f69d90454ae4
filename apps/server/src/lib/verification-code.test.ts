/**
 * The send-code / check-code flow on its own, over a real code table (voice_link_codes): one
 * pending code per user, bounded attempts, an expiry, a code that works once and for its target
 * only, and nothing stored when the code could not be sent.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../test/helpers';
import { voiceLinkCodes } from '../modules/accounts/schema';
import { verificationCodes } from './verification-code';

const RULES = { purpose: 'test', length: 6, ttlMs: 60_000, maxAttempts: 3 };

describe('verificationCodes', () => {
  let t: TestApp;
  let now = 1_000_000;
  let codes: ReturnType<typeof verificationCodes>;
  beforeAll(async () => {
    t = await createTestApp();
    codes = verificationCodes(
      { ...t.app.ctx, clock: { now: () => now } },
      voiceLinkCodes,
      voiceLinkCodes.teamSpeakId,
      RULES,
    );
  });
  afterAll(() => t.close());

  /** Issues a code to `target` and returns what was sent. */
  const issue = async (userId: string, target = 'ident') => {
    let sent = '';
    await codes.issue(userId, target, async (code) => {
      sent = code;
    });
    return sent;
  };
  const pendingRow = async (userId: string) =>
    (await t.app.ctx.db.select().from(voiceLinkCodes).where(eq(voiceLinkCodes.userId, userId)))[0];
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

  it('sends a code of the given length and stores only its hash', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    expect(code).toMatch(/^\d{6}$/);
    const row = await pendingRow(user.id);
    expect(row).toMatchObject({ teamSpeakId: 'ident', attempts: 0 });
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime()).toBe(now + RULES.ttlMs);
  });

  it('accepts the right code once, for its target only', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    expect(await codes.check(user.id, 'other-ident', code)).toBe(false);
    expect(await codes.check(user.id, 'ident', code)).toBe(true);
    expect(await codes.check(user.id, 'ident', code)).toBe(false);
    expect(await pendingRow(user.id)).toBeUndefined();
  });

  it('counts wrong codes and refuses even the right one once the attempts are spent', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    for (let i = 0; i < RULES.maxAttempts; i++)
      expect(await codes.check(user.id, 'ident', wrong(code))).toBe(false);
    expect((await pendingRow(user.id)).attempts).toBe(RULES.maxAttempts);
    expect(await codes.check(user.id, 'ident', code)).toBe(false);
    expect(await pendingRow(user.id)).toBeUndefined();
  });

  it('refuses and drops an expired code', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    now += RULES.ttlMs;
    expect(await codes.check(user.id, 'ident', code)).toBe(false);
    expect(await pendingRow(user.id)).toBeUndefined();
  });

  it('replaces the pending code with a new one, with fresh attempts', async () => {
    const user = await createTestUser(t.app);
    const first = await issue(user.id);
    expect(await codes.check(user.id, 'ident', wrong(first))).toBe(false);
    const second = await issue(user.id, 'ident-2');
    expect(await pendingRow(user.id)).toMatchObject({ teamSpeakId: 'ident-2', attempts: 0 });
    if (first !== second) expect(await codes.check(user.id, 'ident-2', first)).toBe(false);
    expect(await codes.check(user.id, 'ident-2', second)).toBe(true);
  });

  it('stores nothing when the code could not be sent, and keeps the pending one', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    const failed = codes.issue(user.id, 'ident-2', async () => {
      throw new Error('no delivery');
    });
    await expect(failed).rejects.toThrow('no delivery');
    expect(await pendingRow(user.id)).toMatchObject({ teamSpeakId: 'ident' });
    expect(await codes.check(user.id, 'ident', code)).toBe(true);
  });

  it('leaves the code unused when the check before use throws', async () => {
    const user = await createTestUser(t.app);
    const code = await issue(user.id);
    const taken = codes.check(user.id, 'ident', code, async () => {
      throw new Error('claimed meanwhile');
    });
    await expect(taken).rejects.toThrow('claimed meanwhile');
    expect(await pendingRow(user.id)).toMatchObject({ attempts: 0 });
    expect(await codes.check(user.id, 'ident', code)).toBe(true);
  });

  it('binds the hash to its purpose: a code of another purpose does not pass', async () => {
    const user = await createTestUser(t.app);
    const other = verificationCodes(
      { ...t.app.ctx, clock: { now: () => now } },
      voiceLinkCodes,
      voiceLinkCodes.teamSpeakId,
      { ...RULES, purpose: 'other' },
    );
    const code = await issue(user.id);
    expect(await other.check(user.id, 'ident', code)).toBe(false);
    expect(await codes.check(user.id, 'ident', code)).toBe(true);
  });
});
