import { RELOAD_AFTER_VOICE_UNLINK_MS } from '@openpug/shared';
import type { TFunction } from 'i18next';
import { api } from '../api';
import { setLoading, setSuccessMessage } from '../app-state';
import { updateSessionUser } from '../session';

/** A TeamSpeak uid ("0Tt/ugf09…=", 28 characters) shortened for reading: its first 8 characters. */
export const shortVoiceId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/**
 * How the linked voice identity is named: its nickname when it was linked ("Linked to Neo"),
 * else, for a link made before nicknames were kept, its uid shortened.
 */
export function linkedVoiceText(t: TFunction, teamSpeakId: string, teamSpeakName: unknown): string {
  return typeof teamSpeakName === 'string' && teamSpeakName
    ? t('accounts.voice.linkedTo', { name: teamSpeakName })
    : t('accounts.voice.linkedAs', { id: shortVoiceId(teamSpeakId) });
}

/** Unlinks the voice identity: teamSpeakId → null, 'TeamSpeak unlinked successfully', reload after 1.5 s. */
export async function unlinkVoice(reload: () => void = () => window.location.reload()): Promise<void> {
  setLoading(true);
  await api.post('/profile/unlinkTeamSpeak');
  setLoading(false);
  updateSessionUser({ teamSpeakId: null, teamSpeakName: null });
  setSuccessMessage({ key: 'teamspeak.UNLINKED' });
  setTimeout(reload, RELOAD_AFTER_VOICE_UNLINK_MS);
}
