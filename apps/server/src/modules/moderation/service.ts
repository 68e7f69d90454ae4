/**
 * Moderation: admins ban and mute players and lift sanctions early; every change is written to
 * the audit log in the same transaction.
 *
 * - A ban takes the player out of the queue at once (no miss, no cooldown), ends every session
 *   (tokens, sockets, chat credentials) and refuses sign-in while it runs (403 BANNED with the
 *   reason and end); the queue (BANNED), friend requests (BANNED) and the chat (silenced in the
 *   global room and their live match's room) refuse it too. A mute silences the chat only.
 * - Sanctions are rows (startsAt, endsAt — null = permanent —, liftedAt); being active is read
 *   from them at the time of asking. The job `moderation.expire` at a timed sanction's end only
 *   tells the player and gives their chat back.
 * - After every change the player gets PRIVATE_MODERATION_UPDATE with their running ban and mute.
 */
import { randomUUID } from 'node:crypto';
import type { ModerationState, Sanction, SanctionCreate, SanctionList } from '@openpug/shared';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { revokeSessions } from '../accounts';
import { bumpSessionGeneration, findUserById, findUsersByIds } from '../accounts/service';
import { followProductBan, setChatSilenced } from '../chat/service';
import { findLiveMatchId } from '../matches/service';
import { removeBannedFromQueue } from '../queue/service';
import { recordAudit } from './audit';
import { moderationStateOf } from './sanctions';
import { sanctions } from './schema';

/** A timed sanction's end (`endsAt`). */
export const expireJob = defineJob({
  kind: 'moderation.expire',
  payload: z.object({ sanctionId: jobField.id }),
  handle: (ctx, tx, after, { sanctionId }) => sanctionEnded(ctx, tx, after, sanctionId),
});

type SanctionRow = typeof sanctions.$inferSelect;

const isActive = (row: SanctionRow, now: number) =>
  row.liftedAt === null && row.startsAt <= now && (row.endsAt === null || row.endsAt > now);

async function toDtos(ctx: AppContext, rows: SanctionRow[]): Promise<Sanction[]> {
  const ids = new Set(rows.flatMap((r) => (r.liftedBy ? [r.createdBy, r.liftedBy] : [r.createdBy])));
  const names = new Map((await findUsersByIds(ctx.db, [...ids])).map((u) => [u.id, u.name]));
  const person = (id: string) => ({ _id: id, name: names.get(id) ?? null });
  const now = ctx.clock.now();
  return rows.map((r) => ({
    _id: r.id,
    userId: r.userId,
    ...sanctionTerms(r),
    createdBy: person(r.createdBy),
    liftedBy: r.liftedBy ? person(r.liftedBy) : null,
    active: isActive(r, now),
  }));
}

/** What a sanction is and how it ended, as every view of it shows. */
const sanctionTerms = (r: SanctionRow) => ({
  kind: r.kind,
  reason: r.reason,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
  liftedAt: r.liftedAt,
  liftReason: r.liftReason,
});

/** A sanction as the audit log keeps it. */
const auditView = (r: SanctionRow) => ({ id: r.id, ...sanctionTerms(r) });

/** Every sanction of a player, newest first (the admin's view). */
export async function sanctionsOf(ctx: AppContext, userId: string): Promise<SanctionList> {
  if (!(await findUserById(ctx.db, userId))) throw notFound('USER_DOES_NOT_EXIST');
  const rows = await ctx.db
    .select()
    .from(sanctions)
    .where(eq(sanctions.userId, userId))
    .orderBy(desc(sanctions.startsAt), desc(sanctions.id));
  return { docs: await toDtos(ctx, rows) };
}

/**
 * After commit: the player hears their running ban and mute, and their chat follows them
 * (silenced while either runs). A chat outage must not undo the sanction: it is logged. A new ban
 * (`revoke`) then ends the player's sessions: the update above reaches their open tabs first, so
 * they can show why they were signed out (docs/contract.md §4, Bans).
 */
function announce(ctx: AppContext, after: After, userId: string, revoke = false): void {
  after.add(async () => {
    const state: ModerationState = await moderationStateOf(ctx, ctx.db, userId);
    ctx.realtime.toUser(userId, 'PRIVATE_MODERATION_UPDATE', state);
    if (revoke) await revokeSessions(ctx, userId);
    const matchId = await findLiveMatchId(ctx.db, userId);
    await setChatSilenced(ctx, userId, !!(state.ban || state.mute), matchId ? [matchId] : []);
  });
}

export async function createSanction(
  ctx: AppContext,
  adminId: string,
  userId: string,
  input: SanctionCreate,
): Promise<Sanction> {
  const row = await inTransaction(
    ctx.db,
    (tx, after) => insertSanction(ctx, tx, after, adminId, userId, input),
    logOf(ctx),
  );
  return (await toDtos(ctx, [row]))[0];
}

/**
 * Bans or mutes a player inside the caller's transaction (POST /api/admin/users/:id/sanctions, a
 * resolved report): the row, the queue removal of a ban, the audit entry and the expiry job;
 * the player hears of it after commit.
 */
export async function insertSanction(
  ctx: AppContext,
  tx: Db,
  after: After,
  adminId: string,
  userId: string,
  input: SanctionCreate,
): Promise<SanctionRow> {
  if (adminId === userId) throw badRequest('CANNOT_SANCTION_YOURSELF');
  if (!(await findUserById(tx, userId))) throw notFound('USER_DOES_NOT_EXIST');
  const now = ctx.clock.now();
  const row: SanctionRow = {
    id: randomUUID(),
    userId,
    kind: input.kind,
    reason: input.reason,
    createdBy: adminId,
    startsAt: now,
    endsAt: input.minutes === undefined ? null : now + input.minutes * 60_000,
    liftedAt: null,
    liftedBy: null,
    liftReason: null,
  };
  const before = await moderationStateOf(ctx, tx, userId);
  await tx.insert(sanctions).values(row);
  const removedFromQueue = row.kind === 'ban' && (await removeBannedFromQueue(ctx, tx, after, userId));
  // A ban ends every session: tokens issued before it answer 401 BAD_TOKEN once this commits.
  if (row.kind === 'ban') await bumpSessionGeneration(tx, userId);
  await recordAudit(ctx, tx, {
    actorId: adminId,
    action: 'sanction.create',
    targetType: 'user',
    targetId: userId,
    reason: row.reason,
    before,
    after: { ...(await moderationStateOf(ctx, tx, userId)), sanction: auditView(row), removedFromQueue },
  });
  if (row.endsAt !== null) await ctx.jobs.schedule(tx, after, expireJob, { sanctionId: row.id }, row.endsAt);
  if (row.kind === 'ban') followBanInChat(ctx, after, userId);
  announce(ctx, after, userId, row.kind === 'ban');
  return row;
}

/**
 * After commit of a ban's creation, lift or end: the global chat room follows the running bans
 * (banned with the reason while one runs, unbanned and joined again after). A chat outage must
 * not undo the sanction: it is logged.
 */
function followBanInChat(ctx: AppContext, after: After, userId: string): void {
  after.add(() => followProductBan(ctx, userId));
}

/** Ends a running sanction early. Refused (409 SANCTION_NOT_ACTIVE) once it has ended or was lifted. */
export async function liftSanction(
  ctx: AppContext,
  adminId: string,
  sanctionId: string,
  reason: string,
): Promise<Sanction> {
  const lifted = await inTransaction(
    ctx.db,
    async (tx, after) => {
      const [row] = await tx.select().from(sanctions).where(eq(sanctions.id, sanctionId)).for('update');
      if (!row) throw notFound();
      const now = ctx.clock.now();
      if (!isActive(row, now)) throw conflict('SANCTION_NOT_ACTIVE');
      const before = await moderationStateOf(ctx, tx, row.userId);
      const [updated] = await tx
        .update(sanctions)
        .set({ liftedAt: now, liftedBy: adminId, liftReason: reason })
        .where(eq(sanctions.id, sanctionId))
        .returning();
      if (row.endsAt !== null) await ctx.jobs.cancel(tx, after, expireJob, { sanctionId: row.id });
      await recordAudit(ctx, tx, {
        actorId: adminId,
        action: 'sanction.lift',
        targetType: 'user',
        targetId: row.userId,
        reason,
        before: { ...before, sanction: auditView(row) },
        after: { ...(await moderationStateOf(ctx, tx, row.userId)), sanction: auditView(updated) },
      });
      announce(ctx, after, row.userId);
      if (row.kind === 'ban') followBanInChat(ctx, after, row.userId);
      return updated;
    },
    logOf(ctx),
  );
  return (await toDtos(ctx, [lifted]))[0];
}

/** Job `moderation.expire` (key = sanction id): a timed sanction ran out. */
export async function sanctionEnded(
  ctx: AppContext,
  tx: Db,
  after: After,
  sanctionId: string,
): Promise<void> {
  const [row] = await tx.select().from(sanctions).where(eq(sanctions.id, sanctionId));
  if (!row) return;
  announce(ctx, after, row.userId);
  if (row.kind === 'ban') followBanInChat(ctx, after, row.userId);
}
