/**
 * GDPR self-service (community safety, item 7; docs/contract.md): the export of everything stored
 * about a player, and deleting their account.
 *
 * This module is cross-cutting by nature: it reads (export) and erases (delete) rows of many
 * modules' tables in one place, so that nothing is forgotten and the erasure is one transaction.
 * Where another module has a service function with side effects that matter (friends: live list
 * updates; chat: the Matrix account), it calls that instead.
 *
 * Deleting an account:
 * - is confirmed by the current password, or — for an account without one (Steam sign-in only) —
 *   by a fresh ticket of the Steam sign-in popup for the linked Steam account (5 minutes valid,
 *   signed by us). A typed name would prove nothing a stolen session cannot do;
 * - is refused while the player is in the queue or a live match (ACCOUNT_DELETE_BUSY), or banned
 *   (BANNED: deleting would free the e-mail address for a new account at once);
 * - redacts the player's chat messages and deactivates their Matrix account first; when the chat
 *   server fails, nothing else changes (CHAT_UNAVAILABLE) and the player can try again;
 * - sends a confirmation e-mail to the address on file, then removes the `users` row. Every table
 *   keyed to it by foreign key goes with it (one-time links, voice/WhatsApp/Discord codes and
 *   statuses, friendships and requests, push subscriptions, mobile tokens, live status), and in the
 *   same transaction: queue cooldowns, sanctions, dev-outbox messages and the chat credentials.
 *   Every session ends: tokens of a missing account no longer verify (401), open sockets are
 *   disconnected, the name is free again and the leaderboard drops the player;
 * - keeps matches (both teams' history stays whole): the player's `match_players` rows stay with
 *   their stats and Elo numbers under DELETED_PLAYER_NAME, without avatar or Steam id. Drop awards
 *   stay (they count against each drop's copies) under the now meaningless id.
 */
import {
  DELETED_PLAYER_NAME,
  type ExportPerson,
  type PrivacyDeleteBody,
  type PrivacyExport,
  type PrivacyStatus,
} from '@openpug/shared';
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { inTransaction, logOf } from '../../jobs';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors';
import { userRoom } from '../../realtime/hub';
import { users } from '../accounts/schema';
import { findUsersByIds, rankOfUser, toProfile, type UserRow, verifyPassword } from '../accounts/service';
import { chatAccounts } from '../chat/schema';
import { eraseChatAccount, sentMessagesOf } from '../chat/service';
import { dropAwards, drops } from '../drops/schema';
import { friendRequests } from '../friends/schema';
import { deleteRequest, removeFriend } from '../friends/service';
import { outbox } from '../mail/schema';
import { matches, matchPlayers } from '../matches/schema';
import { findLiveMatchId } from '../matches/service';
import { pushSubscriptions } from '../mobile/schema';
import { activeSanction } from '../moderation';
import { sanctions } from '../moderation/schema';
import { queueCooldowns, queueEntries } from '../queue/schema';
import { queueAlerts } from '../queue-alerts/schema';
import { verifySteamTicket } from '../steam';
import { deletionMail } from './mails';

declare module '../../events' {
  interface DomainEvents {
    /** An account was deleted (its row is gone; matches keep it as DELETED_PLAYER_NAME). */
    'user.deleted': { userId: string };
  }
}

const isoOf = (ms: number | Date) => new Date(ms).toISOString();
const isoOrNull = (ms: number | Date | null) => (ms === null ? null : isoOf(ms));

export function privacyStatus(row: UserRow): PrivacyStatus {
  return { confirmWith: row.passwordHash || !row.steamId ? 'password' : 'steam' };
}

/** Public id and name of other players, by id (a deleted one: id only, name null). */
async function peopleOf(db: Db, ids: readonly string[]): Promise<Map<string, ExportPerson>> {
  const rows = await findUsersByIds(db, [...new Set(ids)]);
  return new Map(rows.map((u) => [u.id, { _id: u.id, name: u.name }]));
}

async function matchesOf(ctx: AppContext, userId: string) {
  const mine = await ctx.db
    .select({ p: matchPlayers, m: matches })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(eq(matchPlayers.userId, userId))
    .orderBy(asc(matches.createdAt), asc(matches.id));
  const ids = mine.map((r) => r.m.id);
  const lineups =
    ids.length === 0
      ? []
      : await ctx.db
          .select({
            matchId: matchPlayers.matchId,
            userId: matchPlayers.userId,
            name: matchPlayers.name,
            team: matchPlayers.team,
          })
          .from(matchPlayers)
          .where(inArray(matchPlayers.matchId, ids));
  return mine.map(({ p, m }) => ({
    _id: m.id,
    status: m.status,
    createdAt: isoOf(m.createdAt),
    finishedAt: isoOrNull(m.finishedAt),
    map: m.mapName ?? m.mapKey,
    score: { teamOne: m.scoreOne, teamTwo: m.scoreTwo },
    winner: m.winner,
    team: p.team,
    captain: p.captain,
    stats: { kills: p.kills, deaths: p.deaths, assists: p.assists, damage: p.damage, headshots: p.headshots },
    eloBefore: p.eloBefore,
    eloAfter: p.eloAfter,
    players: lineups
      .filter((l) => l.matchId === m.id && l.userId !== userId)
      .map((l) => ({ _id: l.userId, name: l.name, team: l.team })),
  }));
}

/** Everything stored about the user (docs/contract.md): what GET /api/privacy/export answers. */
export async function exportData(ctx: AppContext, row: UserRow): Promise<PrivacyExport> {
  const id = row.id;
  const db = ctx.db;
  const pairs = await db
    .select()
    .from(friendRequests)
    .where(or(eq(friendRequests.requesterId, id), eq(friendRequests.recipientId, id)))
    .orderBy(asc(friendRequests.createdAt));
  const otherOf = (r: (typeof pairs)[number]) => (r.requesterId === id ? r.recipientId : r.requesterId);
  const people = await peopleOf(db, pairs.map(otherOf));
  const person = (otherId: string): ExportPerson => people.get(otherId) ?? { _id: otherId, name: null };
  const [queued] = await db.select().from(queueEntries).where(eq(queueEntries.userId, id));
  const cooldowns = await db
    .select()
    .from(queueCooldowns)
    .where(eq(queueCooldowns.userId, id))
    .orderBy(asc(queueCooldowns.createdAt));
  const sanctionRows = await db
    .select()
    .from(sanctions)
    .where(eq(sanctions.userId, id))
    .orderBy(asc(sanctions.startsAt));
  const played = await matchesOf(ctx, id);
  const awards = await db
    .select({ a: dropAwards, d: drops })
    .from(dropAwards)
    .innerJoin(drops, eq(drops.id, dropAwards.dropId))
    .where(eq(dropAwards.ownerId, id))
    .orderBy(asc(dropAwards.createdAt));
  const subscriptions = await db
    .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, id));
  const [alert] = await db.select().from(queueAlerts).where(eq(queueAlerts.userId, id));
  const [chatAccount] = await db
    .select({ matrixUserId: chatAccounts.matrixUserId })
    .from(chatAccounts)
    .where(eq(chatAccounts.userId, id));
  const messages = chatAccount ? await sentMessagesOf(ctx, id) : [];

  return {
    format: 1,
    exportedAt: isoOf(ctx.clock.now()),
    profile: {
      ...toProfile(row, await rankOfUser(ctx, row)),
      createdAt: isoOf(row.createdAt),
      hasPassword: row.passwordHash !== null,
      failedLogins: row.failedLogins,
      blockedUntil: isoOrNull(row.blockedUntil),
    },
    linkedAccounts: {
      steam: row.steamId ? { steamId: row.steamId, csgoId: row.csgoId, steamUrl: row.steamUrl } : null,
      teamSpeakId: row.teamSpeakId,
      discordId: row.discordId,
      whatsApp: row.phone ? { phone: row.phone, enabled: row.whatsAppEnabled } : null,
      matrixUserId: chatAccount?.matrixUserId ?? null,
    },
    friends: pairs
      .filter((r) => r.accepted)
      .map((r) => ({ ...person(otherOf(r)), since: isoOrNull(r.acceptedAt) })),
    friendRequests: {
      received: pairs
        .filter((r) => !r.accepted && r.recipientId === id)
        .map((r) => ({ _id: r.id, from: person(r.requesterId), createdAt: isoOf(r.createdAt) })),
      sent: pairs
        .filter((r) => !r.accepted && r.requesterId === id)
        .map((r) => ({ _id: r.id, to: person(r.recipientId), createdAt: isoOf(r.createdAt) })),
    },
    queue: {
      queuedSince: queued ? isoOf(queued.joinedAt) : null,
      cooldowns: cooldowns.map((c) => ({
        kind: c.kind,
        offence: c.offence,
        createdAt: isoOf(c.createdAt),
        endsAt: isoOf(c.endsAt),
        liftedAt: isoOrNull(c.liftedAt),
      })),
    },
    sanctions: sanctionRows.map((s) => ({
      kind: s.kind,
      reason: s.reason,
      startsAt: isoOf(s.startsAt),
      endsAt: isoOrNull(s.endsAt),
      liftedAt: isoOrNull(s.liftedAt),
      liftReason: s.liftReason,
    })),
    matches: played,
    eloHistory: played.flatMap((m) =>
      m.finishedAt && m.eloBefore !== null && m.eloAfter !== null
        ? [{ matchId: m._id, at: m.finishedAt, before: m.eloBefore, after: m.eloAfter }]
        : [],
    ),
    drops: awards.map(({ a, d }) => ({
      _id: a.id,
      name: d.name,
      rarity: d.rarity,
      matchId: a.matchId,
      awardedAt: isoOf(a.createdAt),
      seen: a.seen,
      redeemed: a.redeemed,
    })),
    notifications: {
      sound: row.sound,
      whatsAppEnabled: row.whatsAppEnabled,
      discordLinked: row.discordId !== null,
      pushSubscriptions: subscriptions.map((s) => ({ endpoint: s.endpoint, createdAt: isoOf(s.createdAt) })),
      queueAlert: alert
        ? {
            threshold: alert.threshold,
            channels: alert.channels,
            quietHours:
              alert.quietFrom !== null && alert.quietTo !== null
                ? { from: alert.quietFrom, to: alert.quietTo }
                : null,
            timeZone: alert.timeZone,
          }
        : null,
    },
    chat: {
      matrixUserId: chatAccount?.matrixUserId ?? null,
      messages: messages.map((m) => ({
        roomId: m.roomId,
        eventId: m.eventId,
        sentAt: isoOf(m.ts),
        type: m.type,
        content: m.content,
      })),
    },
  };
}

/** Checks the confirmation of a deletion; throws the refusal (nothing has changed yet). */
async function confirmDeletion(ctx: AppContext, row: UserRow, body: PrivacyDeleteBody): Promise<void> {
  if (privacyStatus(row).confirmWith === 'password') {
    if (body.password === undefined) throw badRequest('MISSING');
    if (!(await verifyPassword(row.passwordHash, body.password))) throw badRequest('WRONG_PASSWORD');
    return;
  }
  if (body.steamTicket === undefined) throw badRequest('MISSING');
  const steamId = await verifySteamTicket(ctx.tokens.secret, body.steamTicket, ctx.clock.now());
  // 400, not 401: a bad ticket must not log the player out.
  if (!steamId) throw badRequest('BAD_TOKEN');
  if (steamId !== row.steamId) throw badRequest('STEAM_ACCOUNT_MISMATCH');
}

/** Deletes the account (see the top of this file). Refusals change nothing. */
export async function deleteAccount(ctx: AppContext, row: UserRow, body: PrivacyDeleteBody): Promise<void> {
  const log = logOf(ctx);
  const id = row.id;
  await confirmDeletion(ctx, row, body);
  const [queued] = await ctx.db.select().from(queueEntries).where(eq(queueEntries.userId, id));
  if (queued || (await findLiveMatchId(ctx.db, id))) throw conflict('ACCOUNT_DELETE_BUSY');
  // Deleting frees the e-mail address and takes the sanctions with the account: a banned player
  // could sign up again at once. The ban runs its course first (an admin can lift it).
  if (await activeSanction(ctx, ctx.db, id, 'ban')) throw forbidden('BANNED');

  try {
    await eraseChatAccount(ctx, id);
  } catch (err) {
    log.error({ err, userId: id }, 'account deletion: chat erasure failed');
    throw new AppError(503, 'CHAT_UNAVAILABLE');
  }

  // Friends and the other side of pending requests see it at once (their lists update live).
  const pairs = await ctx.db
    .select()
    .from(friendRequests)
    .where(or(eq(friendRequests.requesterId, id), eq(friendRequests.recipientId, id)));
  for (const pair of pairs) {
    const other = pair.requesterId === id ? pair.recipientId : pair.requesterId;
    await (pair.accepted ? removeFriend(ctx, id, other) : deleteRequest(ctx, id, pair.id)).catch(
      () => undefined,
    );
  }

  // The confirmation goes to the address on file before it is erased; a failing mail server does
  // not keep the account.
  if (row.email) {
    await ctx.mailer
      .send(deletionMail(row, row.email))
      .catch((err) => log.error({ err, userId: id }, 'account deletion: confirmation mail failed'));
  }

  await inTransaction(
    ctx.db,
    async (tx, after) => {
      await tx
        .update(matchPlayers)
        .set({ name: DELETED_PLAYER_NAME, avatar: null, steamId: null })
        .where(eq(matchPlayers.userId, id));
      await tx.delete(queueCooldowns).where(eq(queueCooldowns.userId, id));
      await tx.delete(sanctions).where(eq(sanctions.userId, id));
      await tx.delete(outbox).where(eq(outbox.userId, id));
      await tx.delete(chatAccounts).where(eq(chatAccounts.userId, id));
      await tx.delete(users).where(eq(users.id, id));
      after.add(async () => {
        ctx.realtime.io.in(userRoom(id)).disconnectSockets(true);
        await ctx.bus.emit('user.deleted', { userId: id });
        await ctx.bus.emit('user.publicChanged', { userId: id });
      });
    },
    log,
  );
}
