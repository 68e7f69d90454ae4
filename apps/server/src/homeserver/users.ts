/**
 * Accounts of the embedded homeserver: users (argon2id password hashes), access tokens (stored
 * hashed, one per device), m.login.token tokens, filters and profiles.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, inArray } from 'drizzle-orm';
import type { Homeserver } from './context';
import { MatrixError, mxForbidden, mxNotFound } from './errors';
import { mxAccessTokens, mxFilters, mxLoginTokens, mxUsers } from './schema';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const random = (n: number) => randomBytes(n).toString('base64url');

export interface Session {
  userId: string;
  deviceId: string;
  tokenHash: string;
}

export interface LoginResult {
  user_id: string;
  access_token: string;
  device_id: string;
  home_server: string;
}

/** `@localpart:server` from a localpart or a full id; null when it is not a valid local user id. */
export function localUserId(hs: Homeserver, user: string): string | null {
  const id = user.startsWith('@') ? user : `@${user.toLowerCase()}:${hs.serverName}`;
  const m = /^@([a-z0-9._=\-/+]+):(.+)$/.exec(id);
  return m && m[2] === hs.serverName ? id : null;
}

export async function createUser(
  hs: Homeserver,
  localpart: string,
  password: string,
  opts: { admin?: boolean; displayname?: string } = {},
): Promise<string> {
  if (!/^[a-z0-9._=\-/+]+$/.test(localpart) || localpart.length > 200) {
    throw new MatrixError(
      400,
      'M_INVALID_USERNAME',
      'User ID can only contain characters a-z, 0-9, or =_-./+',
    );
  }
  const userId = `@${localpart}:${hs.serverName}`;
  const inserted = await hs.db
    .insert(mxUsers)
    .values({
      userId,
      passwordHash: await hash(password),
      admin: opts.admin ?? false,
      displayname: opts.displayname ?? localpart,
      createdAt: hs.now(),
    })
    .onConflictDoNothing()
    .returning({ userId: mxUsers.userId });
  if (inserted.length === 0) throw new MatrixError(400, 'M_USER_IN_USE', 'User ID already taken.');
  return userId;
}

export async function issueToken(hs: Homeserver, userId: string, deviceId?: string): Promise<LoginResult> {
  const device = deviceId && /^[A-Za-z0-9_-]{1,64}$/.test(deviceId) ? deviceId : random(6).toUpperCase();
  const token = `mxe_${random(32)}`;
  await hs.db
    .insert(mxAccessTokens)
    .values({ tokenHash: sha256(token), userId, deviceId: device, createdAt: hs.now() });
  return { user_id: userId, access_token: token, device_id: device, home_server: hs.serverName };
}

export async function passwordLogin(hs: Homeserver, user: string, password: string, deviceId?: string) {
  const userId = localUserId(hs, user);
  const [row] = userId ? await hs.db.select().from(mxUsers).where(eq(mxUsers.userId, userId)) : [];
  if (!row || !(await verify(row.passwordHash, password).catch(() => false))) {
    throw mxForbidden('Invalid username or password');
  }
  return issueToken(hs, row.userId, deviceId);
}

export async function createLoginToken(hs: Homeserver, userId: string, ttlMs = 120_000) {
  const token = random(24);
  await hs.db.insert(mxLoginTokens).values({ tokenHash: sha256(token), userId, expiresAt: hs.now() + ttlMs });
  return { login_token: token, expires_in_ms: ttlMs };
}

export async function tokenLogin(hs: Homeserver, token: string, deviceId?: string) {
  const [row] = await hs.db
    .delete(mxLoginTokens)
    .where(eq(mxLoginTokens.tokenHash, sha256(token)))
    .returning();
  if (!row || row.expiresAt < hs.now()) throw mxForbidden('Invalid login token');
  return issueToken(hs, row.userId, deviceId);
}

export async function sessionForToken(hs: Homeserver, token: string): Promise<Session | null> {
  const tokenHash = sha256(token);
  const [row] = await hs.db.select().from(mxAccessTokens).where(eq(mxAccessTokens.tokenHash, tokenHash));
  return row ? { userId: row.userId, deviceId: row.deviceId, tokenHash } : null;
}

export async function logout(hs: Homeserver, session: Session, all: boolean): Promise<void> {
  await hs.db
    .delete(mxAccessTokens)
    .where(all ? eq(mxAccessTokens.userId, session.userId) : eq(mxAccessTokens.tokenHash, session.tokenHash));
}

export async function getProfile(hs: Homeserver, userId: string) {
  const [row] = await hs.db.select().from(mxUsers).where(eq(mxUsers.userId, userId));
  if (!row) throw mxNotFound('Profile was not found');
  return { displayname: row.displayname ?? undefined, avatar_url: row.avatarUrl ?? undefined };
}

export async function setProfileField(
  hs: Homeserver,
  userId: string,
  field: 'displayname' | 'avatar_url',
  value: string,
) {
  await hs.db
    .update(mxUsers)
    .set(field === 'displayname' ? { displayname: value } : { avatarUrl: value })
    .where(eq(mxUsers.userId, userId));
}

export async function userExists(hs: Homeserver, userId: string): Promise<boolean> {
  const rows = await hs.db.select({ id: mxUsers.userId }).from(mxUsers).where(eq(mxUsers.userId, userId));
  return rows.length > 0;
}

export async function createFilter(
  hs: Homeserver,
  userId: string,
  filter: Record<string, unknown>,
): Promise<string> {
  const [row] = await hs.db.insert(mxFilters).values({ userId, filter }).returning({ id: mxFilters.id });
  return String(row.id);
}

export async function getFilter(
  hs: Homeserver,
  userId: string,
  id: string,
): Promise<Record<string, unknown>> {
  const n = Number(id);
  const [row] =
    Number.isSafeInteger(n) && n > 0 && n < 2 ** 31
      ? await hs.db
          .select()
          .from(mxFilters)
          .where(and(eq(mxFilters.id, n), eq(mxFilters.userId, userId)))
      : [];
  if (!row) throw mxNotFound('No such filter');
  return row.filter;
}

export async function isAdmin(hs: Homeserver, userId: string): Promise<boolean> {
  const [row] = await hs.db.select({ admin: mxUsers.admin }).from(mxUsers).where(eq(mxUsers.userId, userId));
  return row?.admin ?? false;
}

export async function setPassword(hs: Homeserver, userId: string, password: string): Promise<void> {
  const updated = await hs.db
    .update(mxUsers)
    .set({ passwordHash: await hash(password) })
    .where(eq(mxUsers.userId, userId))
    .returning({ id: mxUsers.userId });
  if (updated.length === 0) throw mxNotFound('User not found');
}

/**
 * Synapse's admin deactivation: the account can no longer log in (no password matches '!'), its
 * tokens are gone and its profile is cleared. The id stays taken. Leaving rooms is the caller's.
 */
export async function deactivateUser(hs: Homeserver, userId: string): Promise<void> {
  const updated = await hs.db
    .update(mxUsers)
    .set({ passwordHash: '!', displayname: null, avatarUrl: null })
    .where(eq(mxUsers.userId, userId))
    .returning({ id: mxUsers.userId });
  if (updated.length === 0) throw mxNotFound('User not found');
  await hs.db.delete(mxAccessTokens).where(eq(mxAccessTokens.userId, userId));
  await hs.db.delete(mxLoginTokens).where(eq(mxLoginTokens.userId, userId));
}

/**
 * Synapse's admin device list (synapse/rest/admin/devices.py DevicesRestServlet.on_GET): here a
 * device is a session, so the devices are the distinct device ids of the user's access tokens.
 */
export async function devicesOf(hs: Homeserver, userId: string): Promise<string[]> {
  const rows = await hs.db
    .selectDistinct({ deviceId: mxAccessTokens.deviceId })
    .from(mxAccessTokens)
    .where(eq(mxAccessTokens.userId, userId));
  return rows.map((r) => r.deviceId).sort();
}

/**
 * Synapse's admin bulk device deletion (devices.py DeleteDevicesRestServlet → handlers/device.py
 * delete_devices → delete_access_tokens_for_devices): the devices' access tokens stop working.
 * Unknown device ids are ignored, as Synapse ignores a 404 from its store.
 */
export async function deleteDevices(hs: Homeserver, userId: string, deviceIds: string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await hs.db
    .delete(mxAccessTokens)
    .where(and(eq(mxAccessTokens.userId, userId), inArray(mxAccessTokens.deviceId, deviceIds)));
}
