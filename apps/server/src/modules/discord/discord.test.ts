/**
 * Discord link: one-time codes (reuse, expiry, replacement), the bot secret on the redeem call,
 * the /link command's redeem path without Discord, its acknowledge-then-answer order, unlinking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, manualClock, type TestApp } from '../../../test/helpers';
import { findUserById } from '../accounts/service';
import { EPHEMERAL, handleLinkCommand, type LinkInteraction, onLinkInteraction } from './bot';
import { DISCORD_CODE_TTL_MS } from './service';

const SECRET = 'bot-secret-0123456789abcdef';
const clock = manualClock();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { DISCORD_BOT_SECRET: SECRET } });
});
afterAll(() => t.close());

const generate = async (token: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/profile/discord/generate-link-code',
      headers: bearer(token),
    })
  ).json() as { data: string; expiresAt: number };
const redeem = (payload: object, authorization = `Bot ${SECRET}`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/discord/link',
    headers: authorization ? { authorization } : {},
    payload,
  });
const discordIdOf = async (id: string) => (await findUserById(t.app.ctx.db, id))?.discordId;

describe('Discord link', () => {
  it('links with a one-time code and unlinks', async () => {
    const u = await createTestUser(t.app);
    const { data: code, expiresAt } = await generate(u.token);
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(expiresAt).toBe(clock.now() + DISCORD_CODE_TTL_MS);
    const res = await redeem({ code: code.toLowerCase(), discordId: '123456789012345678' });
    expect(res.json()).toEqual({ success: true });
    expect(await discordIdOf(u.id)).toBe('123456789012345678');

    const un = await t.app.inject({
      method: 'DELETE',
      url: '/api/profile/discord/link',
      headers: bearer(u.token),
    });
    expect(un.json()).toEqual({ unlinked: true });
    expect(await discordIdOf(u.id)).toBeNull();
  });

  it('refuses a reused code, an expired code, an unknown code and a replaced code', async () => {
    const u = await createTestUser(t.app);
    const other = await createTestUser(t.app);
    const { data: code } = await generate(u.token);
    expect((await redeem({ code, discordId: '200000000000000001' })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/api/profile/discord/link', headers: bearer(u.token) });
    const reused = await redeem({ code, discordId: '200000000000000002' });
    expect(reused.statusCode).toBe(404);
    expect(reused.json().errors.msg).toBe('NOT_FOUND_OR_ALREADY_USED');
    expect(await discordIdOf(u.id)).toBeNull();

    const { data: late } = await generate(other.token);
    clock.advance(DISCORD_CODE_TTL_MS + 1);
    expect((await redeem({ code: late, discordId: '200000000000000003' })).json().errors.msg).toBe(
      'NOT_FOUND_OR_ALREADY_USED',
    );
    expect((await redeem({ code: 'ZZZZZZZZ', discordId: '200000000000000003' })).statusCode).toBe(404);

    const { data: first } = await generate(other.token);
    const { data: second } = await generate(other.token);
    expect((await redeem({ code: first, discordId: '200000000000000003' })).statusCode).toBe(404);
    expect(await discordIdOf(other.id)).toBeNull();
    expect((await redeem({ code: second, discordId: '200000000000000003' })).statusCode).toBe(200);
    expect(await discordIdOf(other.id)).toBe('200000000000000003');
  });

  it('requires the bot secret; nothing changes without it', async () => {
    const u = await createTestUser(t.app);
    const { data: code } = await generate(u.token);
    const body = { code, discordId: '300000000000000001' };
    expect((await redeem(body, '')).statusCode).toBe(401);
    expect((await redeem(body, SECRET.slice(1))).statusCode).toBe(401);
    expect((await redeem(body, 'Bot wrong-secret-0123456789abc')).statusCode).toBe(401);
    expect((await redeem(body, bearer(u.token).authorization)).statusCode).toBe(401);
    expect(await discordIdOf(u.id)).toBeNull();
    // The code is still usable by the real bot.
    expect((await redeem(body)).statusCode).toBe(200);
  });

  it('is forbidden when no bot secret is configured', async () => {
    const u = await createTestUser(t.app);
    const { data: code } = await generate(u.token);
    const config = t.app.ctx.config;
    config.DISCORD_BOT_SECRET = undefined;
    try {
      const res = await redeem({ code, discordId: '400000000000000001' });
      expect(res.statusCode).toBe(403);
      expect(await discordIdOf(u.id)).toBeNull();
    } finally {
      config.DISCORD_BOT_SECRET = SECRET;
    }
  });

  it('refuses bad input with the error key', async () => {
    const res = await redeem({ code: 'ABCDEFGH', discordId: 'not-a-snowflake' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.msg).toBe('INVALID_INPUT');
    expect((await redeem({ discordId: '400000000000000001' })).json().errors.msg).toBe('MISSING');
  });

  it('/link <code>: the bot command redeems the code for the caller and answers', async () => {
    const u = await createTestUser(t.app);
    const { data: code } = await generate(u.token);
    const ok = await handleLinkCommand(t.app.ctx, '500000000000000001', code);
    expect(ok.ok).toBe(true);
    expect(ok.reply).toMatch(/linked/);
    expect(await discordIdOf(u.id)).toBe('500000000000000001');
    const again = await handleLinkCommand(t.app.ctx, '500000000000000001', code);
    expect(again).toMatchObject({ ok: false });
    expect(again.reply).toMatch(/unknown, expired or already used/);

    // A Discord account already linked to someone else cannot link a second account.
    const v = await createTestUser(t.app);
    const { data: code2 } = await generate(v.token);
    const taken = await handleLinkCommand(t.app.ctx, '500000000000000001', code2);
    expect(taken).toMatchObject({ ok: false });
    expect(taken.reply).toMatch(/already linked/);
    expect(await discordIdOf(v.id)).toBeNull();
  });

  it('/link acknowledges (ephemeral) before any database work, then edits in the answer', async () => {
    const u = await createTestUser(t.app);
    const { data: code } = await generate(u.token);
    const log = { info: () => {}, error: () => {} };
    const calls: Array<[string, unknown, string | null | undefined]> = [];
    const stub = (deferFails = false): LinkInteraction => ({
      user: { id: '510000000000000001' },
      options: {
        getString: (name) => {
          calls.push(['getString', name, undefined]);
          return code;
        },
      },
      deferReply: async (options) => {
        calls.push(['deferReply', options, await discordIdOf(u.id)]);
        if (deferFails) throw new Error('Unknown interaction');
      },
      editReply: async (options) => {
        calls.push(['editReply', options, await discordIdOf(u.id)]);
      },
    });

    // The acknowledgement failed (too late, or answered elsewhere): the code stays unused.
    await onLinkInteraction(t.app.ctx, stub(true), log);
    expect(calls).toEqual([['deferReply', { flags: EPHEMERAL }, null]]);
    expect(await discordIdOf(u.id)).toBeNull();

    calls.length = 0;
    await onLinkInteraction(t.app.ctx, stub(), log);
    expect(calls).toEqual([
      ['deferReply', { flags: EPHEMERAL }, null],
      ['getString', 'code', undefined],
      ['editReply', { content: expect.stringMatching(/now linked/) }, '510000000000000001'],
    ]);
  });
});
