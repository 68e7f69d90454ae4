/**
 * A short code sent to something a user claims (a voice identity, a WhatsApp number) and checked
 * with a bounded number of attempts. One pending code per user (a new one replaces it), valid for
 * `ttlMs`, at most `maxAttempts` wrong tries, used up exactly once. Only an HMAC of the code is
 * stored, bound to the purpose, the user and the claimed target.
 */
import { createHmac, randomInt } from 'node:crypto';
import { and, type ColumnBaseConfig, type ColumnDataType, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { sameSecret } from './secrets';

type Column<D> = PgColumn<ColumnBaseConfig<ColumnDataType, string> & { data: D; notNull: true }>;

/** A table with one pending code per user (its primary key) and these columns. */
export type CodeTable = PgTable & {
  userId: Column<string>;
  codeHash: Column<string>;
  attempts: Column<number>;
  expiresAt: Column<Date>;
};

export interface CodeRules {
  /** Part of the HMAC input, so a code of one purpose never passes for another. */
  purpose: string;
  /** Digits. */
  length: number;
  ttlMs: number;
  maxAttempts: number;
}

/** What it needs of the app context: the database, the HMAC key (the token secret), the clock. */
interface CodeDeps {
  db: Db;
  tokens: { secret: string | Uint8Array };
  clock: { now(): number };
}

/** The table's property name of `column` (what Drizzle's insert takes). */
function keyOf(table: PgTable, column: PgColumn): string {
  const found = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!found) throw new Error(`column ${column.name} is not in its code table`);
  return found[0];
}

/** `target` is the column of `t` that holds what the code was sent to (a voice identity, a phone number). */
export function verificationCodes(deps: CodeDeps, t: CodeTable, target: Column<string>, rules: CodeRules) {
  const { db } = deps;
  const key = (column: PgColumn) => keyOf(t, column);
  const hash = (userId: string, to: string, code: string) =>
    createHmac('sha256', deps.tokens.secret).update(`${rules.purpose}:${userId}:${to}:${code}`).digest('hex');
  const forget = (userId: string) => db.delete(t).where(eq(t.userId, userId));

  return {
    /**
     * Makes a code and has `send` deliver it; only once that succeeded does it replace the user's
     * pending code (a failed send keeps the previous one and throws what `send` threw).
     */
    async issue(userId: string, to: string, send: (code: string) => Promise<void>): Promise<void> {
      const code = String(randomInt(0, 10 ** rules.length)).padStart(rules.length, '0');
      await send(code);
      const values = {
        [key(t.userId)]: userId,
        [key(target)]: to,
        [key(t.codeHash)]: hash(userId, to, code),
        [key(t.attempts)]: 0,
        [key(t.expiresAt)]: new Date(deps.clock.now() + rules.ttlMs),
      };
      await db.insert(t).values(values).onConflictDoUpdate({ target: t.userId, set: values });
    },

    /**
     * True once: the right code for this target, in time and within the attempts. A wrong code
     * spends an attempt; an expired or spent-out code is dropped. `beforeUse` runs after a match
     * and before the code is used up, so a check that throws there leaves the code as it was.
     * Using it up is one conditional DELETE, so two requests with the same code cannot both pass.
     */
    async check(userId: string, to: string, code: string, beforeUse?: () => Promise<void>): Promise<boolean> {
      const [pending] = await db
        .select({ target, codeHash: t.codeHash, attempts: t.attempts, expiresAt: t.expiresAt })
        .from(t)
        .where(eq(t.userId, userId));
      if (!pending || pending.target !== to) return false;
      if (pending.expiresAt.getTime() <= deps.clock.now() || pending.attempts >= rules.maxAttempts) {
        await forget(userId);
        return false;
      }
      const given = Buffer.from(hash(userId, to, code), 'hex');
      if (!sameSecret(given, Buffer.from(pending.codeHash, 'hex'))) {
        await db
          .update(t)
          .set({ [key(t.attempts)]: sql`${t.attempts} + 1` })
          .where(eq(t.userId, userId));
        return false;
      }
      await beforeUse?.();
      const used = await db
        .delete(t)
        .where(and(eq(t.userId, userId), eq(t.codeHash, pending.codeHash)))
        .returning({ userId: t.userId });
      return used.length > 0;
    },

    /** Drops the user's pending code, if any. */
    async discard(userId: string): Promise<void> {
      await forget(userId);
    },
  };
}
