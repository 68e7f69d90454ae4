/**
 * Users as other players see them: the SocialUser shape of docs/contract.md §3 (friend items, directory rows,
 * the user card), with rank and live status. Served by `GET /api/users` and `GET /api/users/:id`
 * (routes.ts); other modules (friends) use it through service.ts.
 */
import {
  type DirectoryUser,
  ELO_DEFAULT,
  type SocialUser,
  type UserCard,
  type UserStatus,
  type UsersPage,
  type UsersQuery,
} from '@openpug/shared';
import { eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { getStatuses, statusColumn } from '../presence/service';
import { users } from './schema';
import { findUsersByIds, findUsersPage, ranksOfUsers, type UserRow } from './service';

/**
 * The user's Matrix id, `@<userId>:<server>` as the chat module provisions it (server name:
 * MATRIX_SERVER_NAME, else PUBLIC_URL's host name, like the embedded homeserver).
 */
export function matrixIdOf(ctx: AppContext, userId: string): string {
  const server = ctx.config.MATRIX_SERVER_NAME ?? new URL(ctx.config.PUBLIC_URL).hostname;
  return `@${userId}:${server}`;
}

function toSocialUser(ctx: AppContext, row: UserRow, rank: number | null, status: UserStatus): SocialUser {
  return {
    _id: row.id,
    name: row.name,
    avatar: row.avatar,
    steamUrl: row.steamUrl,
    matrixId: matrixIdOf(ctx, row.id),
    stats: { elo: row.elo ?? ELO_DEFAULT },
    rank,
    status,
  };
}

async function decorate(ctx: AppContext, rows: UserRow[]): Promise<SocialUser[]> {
  const ids = rows.map((r) => r.id);
  const [ranks, statuses] = await Promise.all([ranksOfUsers(ctx, ids), getStatuses(ctx, ids)]);
  return rows.map((row) => toSocialUser(ctx, row, ranks.get(row.id) ?? null, statuses.get(row.id)!));
}

/** SocialUsers for the given ids, in the given order; unknown ids are skipped. */
export async function socialUsers(ctx: AppContext, ids: readonly string[]): Promise<SocialUser[]> {
  const rows = await findUsersByIds(ctx.db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is UserRow => !!r);
  return decorate(ctx, ordered);
}

export async function socialUser(ctx: AppContext, id: string): Promise<SocialUser | null> {
  return (await socialUsers(ctx, [id]))[0] ?? null;
}

/** The player directory: a page of users; admins also see e-mail, role and verified. */
export async function directory(ctx: AppContext, query: UsersQuery, asAdmin: boolean): Promise<UsersPage> {
  const { rows, total } = await findUsersPage(ctx.db, {
    sort: query.sort,
    order: query.order,
    page: query.page,
    limit: query.limit,
    filter: query.filter,
  });
  const people = await decorate(ctx, rows);
  const docs: DirectoryUser[] = people.map((person, i) => {
    const row = rows[i];
    const doc: DirectoryUser = { ...person, createdAt: row.createdAt.toISOString() };
    if (asAdmin) Object.assign(doc, { email: row.email, role: row.role, verified: row.verified });
    return doc;
  });
  return { docs, totalDocs: total };
}

/**
 * The card's columns that other modules own (the matches module: accounts sits below it), as SQL
 * over the user's id column: the card is one statement.
 */
export interface CardColumns {
  /** The last results, newest first (at most five). */
  recentResults: (userId: SQLWrapper) => SQL<Array<'W' | 'L'>>;
  /** The reliability score, null without any call yet. */
  reliability: (userId: SQLWrapper) => SQL<number | null>;
}

/**
 * The public user card. The row, the status, the recent results and the reliability are one
 * statement: as four (the row, then the other three side by side) they were two waits for a pooled
 * connection each, and the most statements of any read in the two-instance bench (issue 20
 * target 5, bench/RESULTS.md session 30). The rank comes from the leaderboard's snapshot.
 */
export async function userCard(ctx: AppContext, id: string, columns: CardColumns): Promise<UserCard | null> {
  // Qualified: in a one-table select drizzle would name it "id", which a subquery's own tables have.
  const userId = sql`${users}.${sql.identifier(users.id.name)}`;
  const [found] = await ctx.db
    .select({
      row: users,
      status: statusColumn(userId),
      recentResults: columns.recentResults(userId),
      reliability: columns.reliability(userId),
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  if (!found) return null;
  const { row, status, recentResults, reliability } = found;
  const rank = (await ranksOfUsers(ctx, [id])).get(id) ?? null;
  return {
    ...toSocialUser(ctx, row, rank, status),
    banner: row.banner,
    recentResults,
    reliability,
  };
}
