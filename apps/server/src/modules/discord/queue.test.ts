/**
 * The queue in Discord, driven as Discord users would: the real bot (discord.js) logs in to the fake
 * Discord's gateway, registers /link and /queue, and answers INTERACTION_CREATE dispatches through
 * the interaction callback and webhook routes. One queue across web sockets and Discord; the accept
 * phase as a DM with Accept/Decline buttons that count like the web's; the DM edited when the
 * phase ends; refusals (unlinked, banned, cooldown, no voice link, duplicate join) answered with the
 * catalogue text in the player's language; presses from the wrong account and after the end.
 */
import { PLAYERS_PER_MATCH } from '@openpug/shared';
import type { Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  type TestApp,
} from '../../../test/helpers';
import { createSanction } from '../moderation/service';
import { notificationsSettled } from '../notify/deliver';
import { lastTabClosed } from '../queue/disconnect';
import { acceptPhases, queueEntries } from '../queue/schema';
import { leaveQueue, queueState } from '../queue/service';
import { onQueueInteraction, type QueueInteraction } from './bot';
import { type FakeDiscord, type FakeMessage, startFakeDiscord } from './fake-discord';
import { answerAcceptButton } from './queue-bot';
import { generateDiscordCode } from './service';

const TOKEN = 'fake-bot-token.queue-0123456789';
const PUBLIC_URL = 'https://pug.example.org';
const clock = manualClock();
let t: TestApp;
let fake: FakeDiscord;
const sockets: ClientSocket[] = [];
let n = 0;

beforeAll(async () => {
  fake = await startFakeDiscord(TOKEN);
  t = await createTestApp({
    clock,
    env: {
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: fake.url,
      PUBLIC_URL,
      NOTIFY_RETRY_MS: '1',
      NOTIFY_ATTEMPTS: '2',
    },
  });
  await t.listen();
  await fake.botReady();
}, 30_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
  await fake?.close();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.disconnect();
  await notificationsSettled(t.app.ctx);
  // Every test starts with an empty queue.
  for (const { userId } of await t.app.ctx.db.select().from(queueEntries))
    await leaveQueue(t.app.ctx, userId).catch(() => {});
});

/** A player with a voice link and, unless `discordId: null`, a linked Discord account. */
async function player(
  fields: { locale?: 'en' | 'de'; discordId?: string | null; teamSpeakId?: string | null } = {},
) {
  const i = n++;
  const discordId =
    fields.discordId === undefined ? `80000000000000${String(i).padStart(4, '0')}` : fields.discordId;
  const user = await createTestUser(t.app, {
    discordId,
    teamSpeakId: fields.teamSpeakId === undefined ? `ts-${i}-${Date.now()}` : fields.teamSpeakId,
    locale: fields.locale ?? 'en',
  });
  return { ...user, discordId: discordId ?? '' };
}
type Player = Awaited<ReturnType<typeof player>>;

/** What a user sees after `/queue <sub>`: the (ephemeral) reply's text. */
async function queue(p: { discordId: string }, sub: string, where: 'guild' | 'dm' = 'guild') {
  const i = await fake.slash(p.discordId, `queue ${sub}`, where);
  expect(i.callback?.type).toBe(5); // deferred first (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE)
  expect(fake.ephemeral(i.reply)).toBe(true);
  return i.reply?.content ?? '';
}
const inQueue = async (p: Player) => (await queueState(t.app.ctx, p.id)).inQueue;
/** The accept-phase DM of a player (the newest DM with buttons or, after the end, the newest DM). */
const promptOf = (p: Player): FakeMessage => {
  const dms = fake.dms(p.discordId);
  const prompt = dms.at(-1);
  if (!prompt) throw new Error(`no DM to ${p.discordId}`);
  return prompt;
};
const buttonIds = (m: FakeMessage) => m.components.flatMap((r) => r.components.map((b) => b.custom_id));
const buttonOf = (m: FakeMessage, action: 'accept' | 'decline') => {
  const id = buttonIds(m).find((c) => c?.startsWith(`queue:${action}:`));
  if (!id) throw new Error(`no ${action} button on ${m.id}`);
  return id;
};
async function dmsArrived(players: Player[]) {
  await notificationsSettled(t.app.ctx);
  for (const p of players) expect(buttonIds(promptOf(p))).toHaveLength(2);
}
async function fillWithDiscordPlayers(count: number, fields: Parameters<typeof player>[0] = {}) {
  const ps: Player[] = [];
  for (let i = 0; i < count; i++) {
    const p = await player(fields);
    expect(await queue(p, 'join')).toContain(`(${i + 1}/10)`);
    ps.push(p);
  }
  return ps;
}

describe('the bot on the gateway', () => {
  it('identifies with the token and registers /link and /queue join|leave|status globally', async () => {
    expect(fake.identifies[0]).toMatchObject({ token: TOKEN, intents: 1 });
    const names = fake.commands.map((c) => c.name);
    expect(names).toEqual(['link', 'queue']);
    const queueCommand = fake.commands.find((c) => c.name === 'queue') as {
      options: Array<{ name: string; type: number }>;
    };
    expect(queueCommand.options.map((o) => [o.name, o.type])).toEqual([
      ['join', 1],
      ['leave', 1],
      ['status', 1],
    ]);
    const put = fake.requests.find((r) => r.route === 'commands');
    expect([put?.method, put?.path, put?.status]).toEqual([
      'PUT',
      '/api/v10/applications/1100000000000000001/commands',
      200,
    ]);
  });

  it('/link <code> through the gateway links the caller; then /queue join works for them', async () => {
    const u = await createTestUser(t.app, { teamSpeakId: `ts-link-${Date.now()}` });
    const { code } = await generateDiscordCode(t.app.ctx, u.id);
    const i = await fake.slash('899999999999999990', `link ${code}`);
    expect([i.callback?.type, fake.ephemeral(i.reply)]).toEqual([5, true]);
    expect(i.reply?.content).toMatch(/now linked/);
    expect(await queue({ discordId: '899999999999999990' }, 'join')).toMatch(/^You are in the queue/);
    expect((await queueState(t.app.ctx, u.id)).inQueue).toBe(true);

    // A used code, answered in the caller's Discord language.
    fake.setLocale('899999999999999991', 'de');
    expect((await fake.slash('899999999999999991', `link ${code}`)).reply?.content).toBe(
      'Dieser Code ist unbekannt, abgelaufen oder schon benutzt. Erstelle in deinen openpug-Einstellungen einen neuen.',
    );
  });
});

describe('/queue join, leave, status', () => {
  it('joins, shows the count and leaves; the answer only the caller sees', async () => {
    const p = await player();
    const other = await player();
    expect(await queue(p, 'status')).toBe('Queue: 0/10.\nYou are not in the queue.');
    expect(await queue(p, 'join')).toMatch(/^You are in the queue \(1\/10\)\. When ten are in/);
    expect(await inQueue(p)).toBe(true);
    // The same queue the web sees.
    const web = await connectSocket(t.url, other.token);
    sockets.push(web);
    expect(await web.timeout(5_000).emitWithAck('queue-message', { event: 'join' })).toEqual({
      ok: true,
      data: { inQueue: true, count: 2 },
    });
    expect(await queue(p, 'status')).toBe('Queue: 2/10.\nYou are in the queue.');
    expect(await queue(p, 'leave', 'dm')).toBe('You left the queue (1/10).');
    expect(await inQueue(p)).toBe(false);
    expect(await queue(p, 'leave')).toBe('You are not in the queue');
  });

  it('a duplicate join is refused with the catalogue text; nothing changes', async () => {
    const p = await player();
    await queue(p, 'join');
    expect(await queue(p, 'join')).toBe('You are already in the queue');
    expect((await queueState(t.app.ctx, p.id)).count).toBe(1);
  });

  it('an unlinked Discord user is told to link, with the settings link, in their Discord language', async () => {
    fake.setLocale('899999999999999901', 'de');
    const reply = await queue({ discordId: '899999999999999901' }, 'join');
    expect(reply).toMatch(/^Dein Discord-Konto ist noch nicht mit openpug verknüpft/);
    expect(reply).toContain(`${PUBLIC_URL}/settings`);
    expect(await queue({ discordId: '899999999999999902' }, 'status')).toMatch(
      /^Your Discord account is not linked to openpug yet\. Open https:\/\/pug\.example\.org\/settings/,
    );
    expect((await queueState(t.app.ctx, (await player()).id)).count).toBe(0);
  });

  it('no voice link: refused in the player’s language, with where to fix it', async () => {
    const p = await player({ teamSpeakId: null, locale: 'de' });
    expect(await queue(p, 'join')).toBe(
      `Verknüpfe zuerst deine TeamSpeak-Identität. Das kannst du in deinen Einstellungen ändern: ${PUBLIC_URL}/settings`,
    );
    expect(await inQueue(p)).toBe(false);
  });

  it('a banned player is refused', async () => {
    const admin = await createTestUser(t.app);
    const p = await player();
    await createSanction(t.app.ctx, admin.id, p.id, { kind: 'ban', minutes: 60, reason: 'toxic in voice' });
    expect(await queue(p, 'join')).toBe('You are banned');
    expect(await inQueue(p)).toBe(false);
  });

  it('acknowledges before any work: when the acknowledgement fails (over 3 s, answered elsewhere) nobody joins', async () => {
    const p = await player();
    const calls: string[] = [];
    const interaction = (ackFails: boolean): QueueInteraction => ({
      user: { id: p.discordId },
      locale: 'en-US',
      options: { getSubcommand: () => 'join' },
      deferReply: async (o) => {
        calls.push(`defer ${o.flags}`);
        if (ackFails) throw new Error('Unknown interaction');
      },
      editReply: async (o) => void calls.push(`edit ${o.content.slice(0, 20)}`),
    });
    const log = { info: () => {}, error: () => {} };
    await onQueueInteraction(t.app.ctx, interaction(true), log);
    expect(calls).toEqual(['defer 64']);
    expect(await inQueue(p)).toBe(false);
    await onQueueInteraction(t.app.ctx, interaction(false), log);
    expect(calls).toEqual(['defer 64', 'defer 64', 'edit You are in the queue']);
    expect(await inQueue(p)).toBe(true);
  });

  it('a Discord place needs no tab: the tab-gone grace leaves it alone', async () => {
    const p = await player();
    await queue(p, 'join');
    await lastTabClosed(t.app.ctx, p.id);
    clock.advance(t.app.ctx.config.QUEUE_DISCONNECT_GRACE_MS + 1);
    await t.app.ctx.jobs.runDue();
    expect(await inQueue(p)).toBe(true);
  });
});

describe('the accept phase in Discord', () => {
  it('one queue: 8 Discord players and 2 web players; DMs with buttons; presses count like the web; the match starts', async () => {
    const discord = await fillWithDiscordPlayers(8);
    // Two web players: one also linked (gets the DM too), one not.
    const webLinked = await player();
    const webOnly = await player({ discordId: null });
    const webSockets: ClientSocket[] = [];
    for (const w of [webLinked, webOnly]) {
      const s = await connectSocket(t.url, w.token);
      sockets.push(s);
      webSockets.push(s);
    }
    const ready = webSockets.map((s) => nextEvent<{ deadline: number }>(s, 'PRIVATE_QUEUE_READY'));
    for (const s of webSockets) await s.timeout(5_000).emitWithAck('queue-message', { event: 'join' });
    const { deadline } = (await Promise.all(ready))[0];
    await dmsArrived([...discord, webLinked]);
    expect(fake.dms(webOnly.discordId)).toEqual([]);

    const prompt = promptOf(discord[0]);
    expect(prompt.content).toBe(
      `**openpug: game found!** Accept <t:${Math.ceil(deadline / 1000)}:R>. Declining or not answering costs you your place in the queue and a short queue cooldown.`,
    );
    expect(prompt.components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 3, label: 'Accept', custom_id: buttonOf(prompt, 'accept') },
          { type: 2, style: 4, label: 'Decline', custom_id: buttonOf(prompt, 'decline') },
        ],
      },
    ]);
    expect(await queue(discord[0], 'status')).toMatch(/A match was found: accept it in your direct messages/);

    // The first press: the DM now says so and keeps only Decline.
    const first = await fake.press(discord[0].discordId, prompt.id, buttonOf(prompt, 'accept'));
    expect(first.callback?.type).toBe(6); // DEFERRED_UPDATE_MESSAGE, then PATCH @original
    expect(promptOf(discord[0]).content).toBe('You accepted (1/10 so far). Waiting for the others…');
    expect(buttonIds(promptOf(discord[0]))).toEqual([buttonOf(prompt, 'decline')]);
    expect(
      (await queueState(t.app.ctx, discord[0].id)).phase?.players.filter((x) => x.accepted),
    ).toHaveLength(1);

    const update = nextEvent<{ players: Array<{ accepted: boolean }> }>(
      webSockets[1],
      'PRIVATE_QUEUE_READY_UPDATE',
    );
    for (const p of discord.slice(1)) {
      const m = promptOf(p);
      await fake.press(p.discordId, m.id, buttonOf(m, 'accept'));
    }
    // The web sees the Discord presses.
    expect((await update).players.filter((x) => x.accepted).length).toBeGreaterThanOrEqual(1);
    // The linked web player accepts on the web: counted once, wherever it comes from.
    const match = webSockets.map((s) => nextEvent<{ matchId: string }>(s, 'PRIVATE_QUEUE_MATCH'));
    await webSockets[0].timeout(5_000).emitWithAck('queue-message', { event: 'ready' });
    await webSockets[1].timeout(5_000).emitWithAck('queue-message', { event: 'ready' });
    const { matchId } = (await Promise.all(match))[0];
    expect(matchId).toBeTruthy();
    await notificationsSettled(t.app.ctx);

    // Every DM of the phase now says the match is ready, without buttons.
    for (const p of [...discord, webLinked]) {
      expect(promptOf(p).content).toBe(
        `Everyone accepted: your match is ready. ${PUBLIC_URL}/match/${matchId}`,
      );
      expect(promptOf(p).components).toEqual([]);
    }
    expect((await queueState(t.app.ctx, discord[0].id)).matchId).toBe(matchId);
    expect(await queue(discord[0], 'status')).toBe(
      `Queue: 0/10.\nYou are not in the queue.\nYou are in a live match: ${PUBLIC_URL}/match/${matchId}`,
    );
    expect(await queue(discord[1], 'join')).toBe('You are already playing a match');
  });

  it('Decline ends the phase for everyone: the decliner is out with a cooldown, the rest keep their places', async () => {
    const ps = await fillWithDiscordPlayers(PLAYERS_PER_MATCH, { locale: 'de' });
    await dmsArrived(ps);
    const m = promptOf(ps[3]);
    expect(m.content).toMatch(/^\*\*openpug: Spiel gefunden!\*\*/);
    expect(m.components[0].components.map((b) => b.label)).toEqual(['Annehmen', 'Ablehnen']);
    await fake.press(ps[3].discordId, m.id, buttonOf(m, 'decline'));
    await notificationsSettled(t.app.ctx);
    expect(promptOf(ps[3]).content).toBe('Du hast das Match abgelehnt und die Warteschlange verlassen.');
    expect(promptOf(ps[0]).content).toBe(
      'Ein Spieler hat das Match abgelehnt. Du behältst deinen Platz in der Warteschlange.',
    );
    for (const p of ps) expect(promptOf(p).components).toEqual([]);
    expect(await inQueue(ps[3])).toBe(false);
    expect(await inQueue(ps[0])).toBe(true);

    // The miss's cooldown: /queue join is refused with its end.
    const cooldown = (await queueState(t.app.ctx, ps[3].id)).cooldown;
    expect(cooldown).not.toBeNull();
    expect(await queue(ps[3], 'join')).toBe(
      `Du hast gerade eine Warteschlangen-Sperre. Sie endet <t:${Math.ceil((cooldown?.endsAt ?? 0) / 1000)}:R>.`,
    );
    expect(await queue(ps[3], 'status')).toBe(
      `Warteschlange: 9/10.\nDu bist nicht in der Warteschlange.\nDu hast eine Warteschlangen-Sperre; sie endet <t:${Math.ceil((cooldown?.endsAt ?? 0) / 1000)}:R>.`,
    );
    expect(await inQueue(ps[3])).toBe(false);
  });

  it('the deadline: the unaccepted leave, the accepted stay; a late press changes nothing and says so', async () => {
    const ps = await fillWithDiscordPlayers(PLAYERS_PER_MATCH);
    await dmsArrived(ps);
    const first = promptOf(ps[0]);
    await fake.press(ps[0].discordId, first.id, buttonOf(first, 'accept'));
    await notificationsSettled(t.app.ctx); // the press's own edit is in before the count below
    // Discord fails the end-of-phase edit of one DM (both attempts): its buttons stay.
    const stale = ps[7];
    const m = promptOf(stale);
    const path = `/api/v10/channels/${m.channel_id}/messages/${m.id}`;
    fake.failNext('edit', { status: 502 }, path);
    fake.failNext('edit', { status: 502 }, path);
    const edits = fake.requests.filter((r) => r.route === 'edit').length;
    clock.advance(t.app.ctx.config.ACCEPT_TIMEOUT_MS + 1);
    await t.app.ctx.jobs.runDue();
    await notificationsSettled(t.app.ctx);
    // Ten edits, one of them tried twice (NOTIFY_ATTEMPTS 2); a retry waits NOTIFY_RETRY_MS.
    // The edits go out one after another behind the phase's other after-commit work: on a busy
    // CI machine the last (the retry) came after expect.poll's default second.
    await expect
      .poll(() => fake.requests.filter((r) => r.route === 'edit').length, { timeout: 10_000 })
      .toBe(edits + PLAYERS_PER_MATCH + 1);

    expect(promptOf(ps[0]).content).toBe('Not everyone accepted in time. You keep your place in the queue.');
    for (const p of ps.slice(1).filter((p) => p !== stale)) {
      expect(promptOf(p).content).toBe('You did not accept in time and left the queue.');
      expect(promptOf(p).components).toEqual([]);
    }
    expect(await inQueue(ps[0])).toBe(true);
    expect(await inQueue(stale)).toBe(false);

    // The DM whose edit failed still shows its buttons: a late Accept changes nothing and says so.
    expect(buttonIds(promptOf(stale))).toHaveLength(2);
    const press = await fake.press(stale.discordId, m.id, buttonOf(m, 'accept'));
    expect(press.followups).toEqual([]);
    expect(promptOf(stale)).toMatchObject({
      content: 'This match can no longer be accepted: the accept phase is over.',
      components: [],
    });
    expect(await inQueue(stale)).toBe(false);
    expect((await queueState(t.app.ctx, stale.id)).phase).toBeNull();
  });

  it('a press from another openpug account (the Discord account was re-linked) is refused; nothing counts', async () => {
    const ps = await fillWithDiscordPlayers(PLAYERS_PER_MATCH);
    await dmsArrived(ps);
    const victim = ps[2];
    const m = promptOf(victim);
    // The Discord account moves to a new openpug account, which is not in the phase.
    const newcomer = await createTestUser(t.app, { teamSpeakId: `ts-new-${Date.now()}` });
    await t.app.inject({
      method: 'DELETE',
      url: '/api/profile/discord/link',
      headers: { authorization: `Bearer ${victim.token}` },
    });
    const { code } = await generateDiscordCode(t.app.ctx, newcomer.id);
    expect((await fake.slash(victim.discordId, `link ${code}`)).reply?.content).toMatch(/now linked/);

    const press = await fake.press(victim.discordId, m.id, buttonOf(m, 'accept'));
    expect(press.callback?.type).toBe(6);
    expect(press.followups.map((f) => [f.content, fake.ephemeral(f)])).toEqual([
      ['These buttons belong to another player.', true],
    ]);
    // The DM is as it was, and nobody accepted.
    expect(buttonIds(promptOf(victim))).toHaveLength(2);
    expect((await queueState(t.app.ctx, ps[0].id)).phase?.players.some((x) => x.accepted)).toBe(false);
  });

  it('a phase that ended while its DM was on the way: the DM is edited at once, no buttons left', async () => {
    const p = await player();
    const phaseId = '00000000-0000-4000-8000-0000000000aa';
    const now = clock.now();
    await t.app.ctx.db
      .insert(acceptPhases)
      .values({ id: phaseId, createdAt: now, deadline: now + 30_000, playerIds: [p.id], status: 'declined' });
    await t.app.ctx.bus.emit('queue.phaseStarted', { phaseId, playerIds: [p.id], deadline: now + 30_000 });
    await notificationsSettled(t.app.ctx);
    expect(fake.delivered(p.discordId)).toHaveLength(1);
    expect(promptOf(p)).toMatchObject({
      content: 'This match can no longer be accepted: the accept phase is over.',
      components: [],
    });
  });

  it('button ids are validated: malformed or foreign ids are refused without touching the queue', async () => {
    const p = await player();
    const caller = { discordId: p.discordId, locale: 'en-US' };
    const phaseId = '00000000-0000-4000-8000-000000000000';
    expect(await answerAcceptButton(t.app.ctx, caller, 'queue:accept:not-a-phase')).toEqual({
      reply: 'This button is not valid.',
    });
    expect(await answerAcceptButton(t.app.ctx, caller, `queue:steal:${phaseId}:${p.id}`)).toEqual({
      reply: 'This button is not valid.',
    });
    expect(await answerAcceptButton(t.app.ctx, caller, `queue:accept:${phaseId}:${p.id}`)).toEqual({
      update: { content: 'This match can no longer be accepted: the accept phase is over.', components: [] },
    });
  });
});
