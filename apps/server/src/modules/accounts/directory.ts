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
import type { AppContext } from '../../context';
import { getStatuses } from '../presence/service';
import { findUserById, findUsersByIds, findUsersPage, ranksOfUsers, type UserRow } from './service';

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

export type RecentResults = (ctx: AppContext, userId: string) => Promise<Array<'W' | 'L'>>;
export type Reliability = (ctx: AppContext, userId: string) => Promise<number | null>;

/**
 * The public user card; recent results (newest first) and the reliability score from the given
 * providers (the matches module).
 */
export async function userCard(
  ctx: AppContext,
  id: string,
  recentResults?: RecentResults,
  reliability?: Reliability,
): Promise<UserCard | null> {
  const row = await findUserById(ctx.db, id);
  if (!row) return null;
  // Rank and status, recent results and reliability are independent reads: one round trip.
  const [[person], recent, reliable] = await Promise.all([
    decorate(ctx, [row]),
    recentResults?.(ctx, id),
    reliability?.(ctx, id),
  ]);
  const card: UserCard = { ...person, banner: row.banner };
  if (recent) card.recentResults = recent.slice(0, 5);
  if (reliability) card.reliability = reliable ?? null;
  return card;
}
