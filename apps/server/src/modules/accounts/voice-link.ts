/**
 * Linking a voice-server (TeamSpeak) identity: the voice bot sends a code to the identity, the
 * player types it in Settings (lib/verification-code.ts: bounded attempts, one pending code).
 */
import { VOICE_LINK_CODE_LENGTH, type VoiceIdentity } from '@openpug/shared';
import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { AppError, conflict, notFound } from '../../lib/errors';
import { verificationCodes } from '../../lib/verification-code';
import { VoiceIdentityNotConnectedError } from '../voice';
import { isUniqueViolation } from './credentials';
import { voiceCodeMessage } from './mails';
import { users, voiceLinkCodes } from './schema';
import { localeOf, type UserRow, updateUser } from './service';

export const VOICE_CODE_TTL_MS = 10 * 60_000;
export const VOICE_CODE_MAX_ATTEMPTS = 5;

// Holds nothing in memory (the codes are rows), so it is made per call.
const voiceCodes = (ctx: AppContext) =>
  verificationCodes(ctx, voiceLinkCodes, voiceLinkCodes.teamSpeakId, {
    purpose: 'voice',
    length: VOICE_LINK_CODE_LENGTH,
    ttlMs: VOICE_CODE_TTL_MS,
    maxAttempts: VOICE_CODE_MAX_ATTEMPTS,
  });

/** Refuses an identity another account has linked. */
async function refuseLinkedElsewhere(ctx: AppContext, userId: string, teamSpeakId: string): Promise<void> {
  const [owner] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.teamSpeakId, teamSpeakId));
  if (owner && owner.id !== userId) throw conflict('TEAMSPEAK_ALREADY_LINKED');
}

/** Connected voice identities that no account has linked yet. */
export async function unlinkedVoiceIdentities(ctx: AppContext): Promise<VoiceIdentity[]> {
  const connected = await ctx.voice.listClients();
  if (connected.length === 0) return [];
  const linked = await ctx.db
    .select({ id: users.teamSpeakId })
    .from(users)
    .where(
      inArray(
        users.teamSpeakId,
        connected.map((c) => c.id),
      ),
    );
  const taken = new Set(linked.map((l) => l.id));
  return connected.filter((c) => !taken.has(c.id));
}

/** The voice bot sends a code to the identity (connected, not someone else's). */
export async function sendVoiceLinkCode(
  ctx: AppContext,
  row: UserRow,
  teamSpeakId: string,
  log: { error(obj: object, msg: string): void },
): Promise<void> {
  if (!(await ctx.voice.isConnected(teamSpeakId))) throw notFound('NOT_FOUND');
  await refuseLinkedElsewhere(ctx, row.id, teamSpeakId);
  await voiceCodes(ctx).issue(row.id, teamSpeakId, async (code) => {
    try {
      await ctx.voice.sendPrivateMessage(teamSpeakId, voiceCodeMessage(localeOf(row.locale), code));
    } catch (err) {
      if (err instanceof VoiceIdentityNotConnectedError) throw notFound('NOT_FOUND');
      log.error({ err }, 'voice bot message failed');
      throw new AppError(503, 'SERVER_TIMEOUT_CONNECTION_ERROR');
    }
  });
}

/** Checks the code; on success links the identity (with its nickname now) and says whether it is online. */
export async function checkVoiceLinkCode(
  ctx: AppContext,
  row: UserRow,
  teamSpeakId: string,
  code: string,
): Promise<boolean> {
  // Someone else may have linked this identity since the code was sent.
  const unclaimed = () => refuseLinkedElsewhere(ctx, row.id, teamSpeakId);
  if (!(await voiceCodes(ctx).check(row.id, teamSpeakId, code, unclaimed))) return false;
  // The nickname it has now (the code just reached it there), so Settings can name it.
  const teamSpeakName =
    (await ctx.voice.listClients()).find((client) => client.id === teamSpeakId)?.name || null;
  try {
    await updateUser(ctx, row.id, { teamSpeakId, teamSpeakName });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('TEAMSPEAK_ALREADY_LINKED');
    throw err;
  }
  await ctx.bus.emit('status.patch', {
    userId: row.id,
    patch: { teamSpeak: await ctx.voice.isConnected(teamSpeakId) },
  });
  return true;
}

export async function unlinkVoice(ctx: AppContext, row: UserRow): Promise<void> {
  await voiceCodes(ctx).discard(row.id);
  if (row.teamSpeakId) {
    await updateUser(ctx, row.id, { teamSpeakId: null, teamSpeakName: null });
    await ctx.bus.emit('status.patch', { userId: row.id, patch: { teamSpeak: false } });
  }
}
