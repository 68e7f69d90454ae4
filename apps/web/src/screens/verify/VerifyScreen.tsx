/**
 * /verify/:id (docs/contract.md §4): posts the id from the e-mail link once; 200 sets emailVerified to the
 * returned value, marks the stored user verified and shows 'E-mail verified successfully'. The link
 * of a sign-up answers with the new account's session: it is stored (signed in) and the screen
 * says the account is ready.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import type { VerifyResponse } from '@openpug/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { AuthCard } from '../../features/accounts/AuthCard';
import { completeLogin, LOGIN_PATH } from '../../features/accounts/sessionRules';
import { ApiError, api } from '../../features/api/client';
import { setLoading } from '../../features/app-state/store';
import { updateSessionUser, useSession } from '../../features/session/store';

// One call per link even when React runs the effect twice (StrictMode) or the screen remounts.
const pending = new Map<string, Promise<VerifyResponse>>();
function verifyOnce(id: string) {
  let call = pending.get(id);
  if (!call) {
    setLoading(true);
    call = api.post<VerifyResponse>('/verify', { id }, { silent: true }).finally(() => setLoading(false));
    pending.set(id, call);
  }
  return call;
}

export function VerifyScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const loggedIn = useSession((s) => s.isTokenSet);
  const [emailVerified, setEmailVerified] = useState<boolean | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [created, setCreated] = useState(false);

  useEffect(() => {
    let live = true;
    verifyOnce(id)
      .then((res) => {
        if (!live) return;
        setEmailVerified(res.verified);
        if (res.session) {
          completeLogin(res.session);
          setCreated(true);
        } else updateSessionUser({ verified: res.verified });
      })
      .catch((err) => live && setFailed(err instanceof ApiError ? err.key : 'ERROR'));
    return () => {
      live = false;
    };
  }, [id]);

  return (
    <AuthCard title={t('screens.verify.title')}>
      <Stack spacing={3} sx={{ alignItems: 'stretch' }}>
        {emailVerified === null && failed === null && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <CircularProgress size={24} />
            <span>{t('accounts.verify.checking')}</span>
          </Stack>
        )}
        {emailVerified && (
          <Alert severity="success" variant="outlined">
            {t(created ? 'accounts.verify.created' : 'accounts.verify.success')}
          </Alert>
        )}
        {failed && (
          <Alert severity="error" variant="outlined">
            {t(failed)}
          </Alert>
        )}
        {(emailVerified !== null || failed) && (
          <Button component={RouterLink} to={loggedIn ? '/home' : LOGIN_PATH} variant="contained">
            {loggedIn ? t('accounts.verify.toHome') : t('accounts.verify.toLogin')}
          </Button>
        )}
      </Stack>
    </AuthCard>
  );
}
