/**
 * The audit log of admin actions: `recordAudit` writes one entry (in the caller's transaction
 * where the action runs in one), `listAudit` reads them newest first with filters and paging.
 */
import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditPage, AuditQuery, AuditTargetType } from '@openpug/shared';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { findUsersByIds } from '../accounts/service';
import { auditLog } from './schema';

export interface AuditInput {
  actorId: string;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

/** JSON as stored: undefined becomes null, dates and the like become their JSON form. */
const asJson = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

export async function recordAudit(ctx: AppContext, db: Db, entry: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    id: randomUUID(),
    createdAt: ctx.clock.now(),
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    reason: entry.reason ?? null,
    before: asJson(entry.before),
    after: asJson(entry.after),
  });
}

export async function listAudit(ctx: AppContext, q: AuditQuery): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (q.actor) conditions.push(eq(auditLog.actorId, q.actor));
  if (q.action) conditions.push(eq(auditLog.action, q.action));
  if (q.target) conditions.push(eq(auditLog.targetId, q.target));
  if (q.from !== undefined) conditions.push(gte(auditLog.createdAt, q.from));
  if (q.to !== undefined) conditions.push(lt(auditLog.createdAt, q.to));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.seq))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [{ total }] = await ctx.db.select({ total: count() }).from(auditLog).where(where);
  const userIds = new Set(rows.map((r) => r.actorId));
  for (const r of rows) if (r.targetType === 'user') userIds.add(r.targetId);
  const names = new Map((await findUsersByIds(ctx.db, [...userIds])).map((u) => [u.id, u.name]));
  const docs: AuditEntry[] = rows.map((r) => ({
    _id: r.id,
    createdAt: r.createdAt,
    actor: { _id: r.actorId, name: names.get(r.actorId) ?? null },
    action: r.action as AuditAction,
    targetType: r.targetType,
    targetId: r.targetId,
    targetName: r.targetType === 'user' ? (names.get(r.targetId) ?? null) : null,
    reason: r.reason,
    before: r.before ?? null,
    after: r.after ?? null,
  }));
  return { docs, totalDocs: Number(total) };
}
