/**
 * Session answers (login, Steam login, sign-up): `{user, token, expiresAt, matrix}`. The chat
 * module fills `matrix` by registering a provider with `setMatrixSessionProvider`. A banned
 * player gets no session (403 BANNED with the ban's reason and end).
 *
 * `revokeSessions` ends what a revoked session still holds after its token stopped verifying
 * (docs/contract.md §4): the open sockets and the chat credentials handed out at login.
 */
import { LOCALES, type Locale, type SessionResponse } from '@openpug/shared';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { AppError } from '../../lib/errors';
import { sessionTokenHash, userRoom } from '../../realtime/hub';
import { activeSanction } from '../moderation';
import {
  type ChatRevoker,
  type MatrixSessionProvider,
  rankOfUser,
  toProfile,
  type UserRow,
  updateUser,
} from './service';

/** The chat module registers how to obtain the messaging credentials returned at login. */
export function setMatrixSessionProvider(ctx: AppContext, provider: MatrixSessionProvider): void {
  ctx.state.accounts.matrixSession = provider;
}

/** The chat module registers how to revoke the messaging credentials handed out at login. */
export function setChatRevoker(ctx: AppContext, revoke: ChatRevoker): void {
  ctx.state.accounts.chatRevoker = revoke;
}

/**
 * After the account's session generation moved on (password change or reset, ban): its open
 * sockets hear `unauthorized {msg: BAD_TOKEN}` and are disconnected on every instance (a tab
 * still holding a valid token reconnects and signs in again), and the chat access tokens handed
 * out at login are revoked on the homeserver. Events emitted to the user before this call reach
 * them first. A chat outage does not undo the revocation of the product session: it is logged and
 * the chat token stays usable until the next revocation or login. `keepToken` (a password change)
 * spares the sockets signed in with the caller's own token, which the change replaces. The chat
 * token is one per account, so the caller asks for a new one (GET /api/chat/session).
 */
export async function revokeSessions(ctx: AppContext, userId: string, keepToken?: string): Promise<void> {
  const room = ctx.realtime.io.in(userRoom(userId));
  if (keepToken) {
    const kept = sessionTokenHash(keepToken);
    for (const socket of await room.fetchSockets()) {
      if (socket.data.tokenHash === kept) continue;
      socket.emit('unauthorized', { msg: 'BAD_TOKEN' });
      socket.disconnect(true);
    }
  } else {
    room.emit('unauthorized', { msg: 'BAD_TOKEN' });
    room.disconnectSockets(true);
  }
  try {
    await ctx.state.accounts.chatRevoker?.(userId);
  } catch (err) {
    logOf(ctx).error({ err, userId }, 'chat credentials not revoked');
  }
}

export async function sessionResponse(ctx: AppContext, signedIn: UserRow): Promise<SessionResponse> {
  const ban = await activeSanction(ctx, ctx.db, signedIn.id, 'ban');
  if (ban) throw new AppError(403, 'BANNED', { ban });
  const row = await applyAdminSeed(ctx, signedIn);
  const { token, expiresAt } = await ctx.tokens.sign(row.id, row.sessionGeneration);
  const provider = ctx.state.accounts.matrixSession;
  let matrix: unknown = null;
  if (provider) {
    try {
      matrix = (await provider(row.id)) ?? null;
    } catch {
      matrix = null;
    }
  }
  return { user: toProfile(row, await rankOfUser(ctx, row)), token, expiresAt, matrix };
}

/** First supported language of an Accept-Language header, else en. */
export function localeFromHeader(header: string | undefined): Locale {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0].trim().slice(0, 2).toLowerCase();
    if ((LOCALES as readonly string[]).includes(tag)) return tag as Locale;
  }
  return 'en';
}

/** The language a read of admin-written texts is for: `?locale=`, else the Accept-Language header. */
export const requestLocale = (request: {
  query: { locale?: Locale };
  headers: { 'accept-language'?: string };
}): Locale => request.query.locale ?? localeFromHeader(request.headers['accept-language']);

const isAdminEmail = (ctx: AppContext, email: string | null) =>
  !!email && ctx.config.ADMIN_EMAILS.includes(email.toLowerCase());

/**
 * ADMIN_EMAILS is a seed, not a rule: a listed address makes its account ADMIN once, and only
 * when the address is verified (anyone can type a listed address at sign-up or in the profile).
 * Once the role is decided, by this seed, an admin or the CLI, the list no longer applies, so an
 * admin's demotion is never undone at the next sign-in. Runs at verification and every sign-in.
 */
export async function applyAdminSeed(ctx: AppContext, row: UserRow): Promise<UserRow> {
  if (row.roleDecided || !row.verified || !isAdminEmail(ctx, row.email)) return row;
  return (await updateUser(ctx, row.id, { role: 'ADMIN', roleDecided: true })) ?? row;
}
