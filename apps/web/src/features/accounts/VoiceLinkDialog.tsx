/**
 * The voice-server link dialog (docs/contract.md §4 Profile links): pick your own identity from the live list
 * (refreshed every 5 s while unlinked), the bot sends a 4-digit code to it, enter the code
 * (submitted when all boxes are filled). A wrong code marks the input as error.
 */

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { VOICE_LINK_CODE_LENGTH, VOICE_USER_LIST_REFRESH_MS, type VoiceIdentity } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { setLoading, setSuccessMessage } from '../app-state';
import { updateSessionUser, useSession } from '../session';
import { CodeInput, codeInputKey } from './CodeInput';
import { linkedVoiceText, unlinkVoice } from './voiceLink';
import { closeVoiceLinkDialog, useVoiceLinkDialog } from './voiceLinkState';

export function VoiceLinkDialog() {
  const { t } = useTranslation();
  const open = useVoiceLinkDialog((s) => s.open);
  const teamSpeakId = useSession((s) =>
    typeof s.user?.teamSpeakId === 'string' ? s.user.teamSpeakId : null,
  );
  const teamSpeakName = useSession((s) => s.user?.teamSpeakName);
  const [picked, setPicked] = useState<VoiceIdentity | null>(null);
  const [codeError, setCodeError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [checking, setChecking] = useState(false);

  const identities = useQuery({
    queryKey: ['accounts', 'teamSpeakUsers'],
    queryFn: ({ signal }) => api.get<VoiceIdentity[]>('/profile/teamSpeakUsers', { signal }),
    enabled: open && !teamSpeakId && !picked,
    refetchInterval: VOICE_USER_LIST_REFRESH_MS,
    staleTime: 0,
  });

  const close = () => {
    closeVoiceLinkDialog();
    setPicked(null);
    setCodeError(false);
  };

  const pick = async (identity: VoiceIdentity) => {
    setLoading(true);
    try {
      await api.post('/profile/linkTeamSpeak', { teamSpeakId: identity.id });
      setLoading(false);
      setPicked(identity);
      setCodeError(false);
      setAttempt((a) => a + 1);
    } catch {
      void identities.refetch();
    }
  };

  const submitCode = async (code: string) => {
    if (!picked) return;
    setChecking(true);
    try {
      const { success } = await api.post<{ success: boolean }>('/profile/teamSpeakCode', {
        teamSpeakId: picked.id,
        code,
      });
      if (success) {
        updateSessionUser({ teamSpeakId: picked.id, teamSpeakName: picked.name });
        setSuccessMessage({ key: 'accounts.voice.linkedSuccess' });
        close();
      } else {
        setCodeError(true);
        setAttempt((a) => a + 1);
      }
    } catch {
      setCodeError(true);
    } finally {
      setChecking(false);
    }
  };

  const list = identities.data ?? [];

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="voice-link-title">
      <DialogTitle id="voice-link-title">{t('accounts.voice.dialogTitle')}</DialogTitle>
      <DialogContent>
        {teamSpeakId ? (
          <Stack spacing={2}>
            <Alert severity="success" variant="outlined">
              {linkedVoiceText(t, teamSpeakId, teamSpeakName)}
            </Alert>
          </Stack>
        ) : picked ? (
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <Typography>{t('accounts.voice.codeSent', { name: picked.name })}</Typography>
            <CodeInput
              key={codeInputKey(attempt)}
              length={VOICE_LINK_CODE_LENGTH}
              label={t('accounts.voice.codeLabel')}
              error={codeError}
              disabled={checking}
              onComplete={(code) => void submitCode(code)}
            />
            <Typography
              role={codeError ? 'alert' : undefined}
              variant="body2"
              color={codeError ? 'error' : 'text.secondary'}
              sx={{ textAlign: 'center' }}
            >
              {codeError ? t('accounts.voice.wrongCode') : t('accounts.voice.codeHint')}
            </Typography>
          </Stack>
        ) : (
          <Stack spacing={2}>
            <Typography color="text.secondary">{t('accounts.voice.pickHint')}</Typography>
            {list.length > 0 ? (
              <List
                aria-label={t('accounts.voice.identities')}
                sx={{ border: 1, borderColor: 'divider', borderRadius: 2, py: 0 }}
              >
                {list.map((identity) => (
                  <ListItemButton key={identity.id} onClick={() => void pick(identity)} divider>
                    <ListItemText primary={identity.name} secondary={t('accounts.voice.itsMe')} />
                  </ListItemButton>
                ))}
              </List>
            ) : (
              // A status (read out when it appears), its spinner named (issue 17: no unnamed progressbar).
              <Stack
                direction="row"
                spacing={2}
                role="status"
                data-testid="voice-waiting"
                sx={{ py: 2, alignItems: 'center' }}
              >
                <CircularProgress size={20} aria-label={t('accounts.voice.waitingLabel')} />
                <Typography variant="body2" color="text.secondary">
                  {t('accounts.voice.waiting')}
                </Typography>
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {teamSpeakId && (
          <Button color="error" onClick={() => void unlinkVoice().catch(() => undefined)}>
            {t('accounts.voice.unlink')}
          </Button>
        )}
        {picked && !teamSpeakId && (
          <Button onClick={() => setPicked(null)}>{t('accounts.voice.back')}</Button>
        )}
        <Button onClick={close}>{t('dialogs.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
