/**
 * Home (docs/contract.md §2): the welcome, and a notice to verify the account through the e-mail link while
 * it is unverified. A player without a voice identity is pointed to the link dialog. The arena
 * servers, and when matches started over the last 4 weeks (the best time to play).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { openVoiceLinkDialog } from '../../features/accounts/voiceLinkState';
import { ArenaList } from '../../features/arena';
import { StartsHeatmap } from '../../features/insights';
import { useSession } from '../../features/session/store';
import { ScreenPage } from '../../ui/ScreenPage';

export function HomeScreen() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const name = typeof user?.name === 'string' && user.name ? user.name : null;
  const needsVerification = Boolean(user?.email) && user?.verified === false;
  return (
    <ScreenPage title={name ? t('accounts.home.welcomeName', { name }) : t('accounts.home.welcome')}>
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <Typography color="text.secondary">{t('accounts.home.intro')}</Typography>
        {needsVerification && (
          <Alert severity="warning" variant="outlined" data-testid="verify-notice">
            {t('accounts.home.verifyNotice', { email: user?.email })}
          </Alert>
        )}
        {user && !user.teamSpeakId && (
          <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Stack sx={{ flex: 1 }} spacing={0.5}>
                <Typography sx={{ fontWeight: 700 }}>{t('accounts.voice.homeTitle')}</Typography>
                <Typography color="text.secondary" variant="body2">
                  {t('accounts.voice.homeHint')}
                </Typography>
              </Stack>
              <Button variant="contained" onClick={openVoiceLinkDialog}>
                {t('accounts.voice.link')}
              </Button>
            </Stack>
          </Paper>
        )}
        <ArenaList />
        <StartsHeatmap />
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/profile" variant="outlined">
            {t('screens.profile.title')}
          </Button>
          <Button component={RouterLink} to="/settings" variant="outlined">
            {t('screens.settings.title')}
          </Button>
        </Stack>
      </Stack>
    </ScreenPage>
  );
}
