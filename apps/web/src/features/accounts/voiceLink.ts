import { RELOAD_AFTER_VOICE_UNLINK_MS } from '@openpug/shared';
import { api } from '../api/client';
import { setLoading, setSuccessMessage } from '../app-state/store';
import { updateSessionUser } from '../session/store';

/** Unlinks the voice identity: teamSpeakId → null, 'TeamSpeak unlinked successfully', reload after 1.5 s. */
export async function unlinkVoice(reload: () => void = () => window.location.reload()): Promise<void> {
  setLoading(true);
  await api.post('/profile/unlinkTeamSpeak');
  setLoading(false);
  updateSessionUser({ teamSpeakId: null });
  setSuccessMessage({ key: 'teamspeak.UNLINKED' });
  setTimeout(reload, RELOAD_AFTER_VOICE_UNLINK_MS);
}
