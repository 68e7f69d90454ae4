/**
 * The own profile: reading it and changing name, e-mail (re-verification), sound, banner and
 * language (docs/contract.md §4).
 */
import { DEFAULT_SOUND, type Profile, type ProfileUpdateBody } from '@openpug/shared';
import type { AppContext } from '../../context';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { unlocksOf } from '../drops/service';
import { isUniqueViolation, type MailLog, sendAccountMail } from './credentials';
import { findUserByEmail, rankOfUser, toProfile, type UserRow, updateUser } from './service';

export async function ownProfile(ctx: AppContext, row: UserRow): Promise<Profile> {
  return toProfile(row, await rankOfUser(ctx, row));
}

/** Applies the change; a banner or sound must be unlocked, a new address is mailed a link. */
export async function updateProfile(
  ctx: AppContext,
  row: UserRow,
  body: ProfileUpdateBody,
  log: MailLog,
): Promise<Profile> {
  const patch: Partial<UserRow> = {};
  if (body.banner !== undefined && body.banner !== row.banner) {
    if (!row.unlockedBanners.includes(body.banner)) throw forbidden('BANNER_NOT_UNLOCKED');
    patch.banner = body.banner;
  }
  // Sounds are unlocked by drops (none stored on the user); the default is everybody's.
  if (body.sound !== undefined && body.sound !== row.sound) {
    if (body.sound !== DEFAULT_SOUND && !(await unlocksOf(ctx, row.id)).sounds.includes(body.sound))
      throw forbidden('SOUND_NOT_UNLOCKED');
    patch.sound = body.sound;
  }
  const emailChanged = body.email !== undefined && body.email !== row.email;
  if (emailChanged && body.email) {
    const other = await findUserByEmail(ctx.db, body.email);
    if (other && other.id !== row.id) throw conflict('EMAIL_ALREADY_EXISTS');
    patch.email = body.email;
    patch.verified = false;
  }
  if (body.name !== undefined) patch.name = body.name;
  if (body.locale !== undefined) patch.locale = body.locale;
  let updated: UserRow | null;
  try {
    updated = await updateUser(ctx, row.id, patch);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('EMAIL_ALREADY_EXISTS');
    throw err;
  }
  if (!updated) throw notFound('USER_DOES_NOT_EXIST');
  if (emailChanged && updated.email) await sendAccountMail(ctx, 'emailChange', updated, updated.email, log);
  return ownProfile(ctx, updated);
}
