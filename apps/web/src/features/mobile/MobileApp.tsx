/**
 * /m — the phone-first queue app (issue 8): signs in from the one-time link of the QR code
 * (?u=<userId>&t=<token>, exchanged once, then removed from the address), shows the queue count,
 * Play / Leave, the accept phase with countdown and Accept, and the way to the match room. An
 * installable web app (manifest, icons, service worker that shows 'game found' pushes).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SessionResponse } from '@openpug/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSecondsLeft } from '../../ui/Timer';
import { completeLogin } from '../accounts';
import { api } from '../api';
import {
  CooldownNotice,
  hasAccepted,
  readyCount,
  restoreQueue,
  sendQueue,
  useQueue,
  useQueueSocketEvents,
  useRunningCooldown,
} from '../queue';
import { useSession } from '../session';
import { useSocketState } from '../socket';
import { currentPushState, enablePush, type PushState, registerServiceWorker } from './push';

type LinkState = 'none' | 'exchanging' | 'invalid';

function useManifest() {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/manifest.webmanifest';
    document.head.appendChild(link);
    const theme = document.createElement('meta');
    theme.name = 'theme-color';
    theme.content = '#0b0f17';
    document.head.appendChild(theme);
    const apple = document.createElement('link');
    apple.rel = 'apple-touch-icon';
    apple.href = '/icons/icon-192.png';
    document.head.appendChild(apple);
    void registerServiceWorker();
    return () => {
      link.remove();
      theme.remove();
      apple.remove();
    };
  }, []);
}

/** Exchanges ?u=&t= for a session once, then drops them from the address bar. */
function useOneTimeLogin(): LinkState {
  const [state, setState] = useState<LinkState>(() =>
    new URLSearchParams(window.location.search).has('t') ? 'exchanging' : 'none',
  );
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const u = params.get('u');
    const t = params.get('t');
    if (!u || !t) return;
    window.history.replaceState(null, '', '/m');
    api
      .post<SessionResponse>('/mobile/exchange', { u, t }, { silent: true })
      .then((session) => {
        completeLogin(session);
        setState('none');
      })
      .catch(() => setState(useSession.getState().isTokenSet ? 'none' : 'invalid'));
  }, []);
  return state;
}

function useMobileQueueEvents() {
  const navigate = useNavigate();
  const authenticated = useSocketState((s) => s.authenticated);
  const [matchId, setMatchId] = useState<string | null>(null);
  useEffect(() => {
    if (!authenticated) return;
    void restoreQueue()
      .then(() => undefined)
      .catch(() => undefined);
    void api
      .get<{ matchId: string | null }>('/queue', { silent: true })
      .then((s) => setMatchId(s.matchId))
      .catch(() => undefined);
  }, [authenticated]);
  useQueueSocketEvents({ onMatchFound: setMatchId, onMatchStart: setMatchId });
  return { matchId, openMatch: (id: string) => navigate(`/match/${id}`) };
}

function Logo() {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <img src="/icons/icon.svg" width={32} height={32} alt="" />
      <Typography component="h1" sx={{ fontWeight: 800, fontSize: '1.15rem' }}>
        openpug
      </Typography>
    </Stack>
  );
}

function PushCard() {
  const { t } = useTranslation();
  const [state, setState] = useState<PushState | null>(null);
  useEffect(() => {
    void currentPushState().then(setState);
  }, []);
  if (state === null) return null;
  const text =
    state === 'subscribed'
      ? t('reach.mobile.notifyActive')
      : state === 'denied'
        ? t('reach.mobile.notifyBlocked')
        : state === 'unsupported'
          ? t('reach.mobile.notifyUnsupported')
          : t('reach.mobile.notifyOnHelp');
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 3 }} data-testid="push-card">
      <Typography variant="body2" color="text.secondary">
        {text}
      </Typography>
      {(state === 'default' || state === 'granted') && (
        <Button
          sx={{ mt: 1.5 }}
          variant="outlined"
          fullWidth
          onClick={() =>
            void enablePush()
              .then(setState)
              .catch(() => setState('default'))
          }
        >
          {t('reach.mobile.notifyOn')}
        </Button>
      )}
    </Paper>
  );
}

function QueueCard({ matchId, openMatch }: { matchId: string | null; openMatch: (id: string) => void }) {
  const { t } = useTranslation();
  const q = useQueue();
  const me = useSession((s) => s.user?._id as string | undefined);
  const voiceLinked = useSession((s) => Boolean(s.user?.teamSpeakId));
  const secondsLeft = useSecondsLeft(q.phase?.deadline ?? null, 250);
  const cooldown = useRunningCooldown();

  if (matchId && !q.inQueue) {
    return (
      <Paper sx={{ p: 3, borderRadius: 3, textAlign: 'center' }} data-testid="mobile-match">
        <Typography sx={{ fontWeight: 800, fontSize: '1.4rem' }}>{t('reach.mobile.matchReady')}</Typography>
        <Button sx={{ mt: 2 }} size="large" variant="contained" fullWidth onClick={() => openMatch(matchId)}>
          {t('reach.mobile.openMatch')}
        </Button>
      </Paper>
    );
  }

  if (q.phase) {
    const total = q.phase.players.length;
    const ready = readyCount(q.phase);
    const accepted = hasAccepted(q.phase, me);
    return (
      <Paper
        sx={{ p: 3, borderRadius: 3, textAlign: 'center', border: 2, borderColor: 'primary.main' }}
        data-testid="mobile-accept"
      >
        <Typography sx={{ fontWeight: 800, fontSize: '1.6rem' }}>{t('reach.mobile.gameFound')}</Typography>
        <Typography
          sx={{ fontSize: '3rem', fontWeight: 800, lineHeight: 1.1, my: 1 }}
          data-testid="mobile-countdown"
        >
          {secondsLeft}
        </Typography>
        <Typography color="text.secondary">{t('reach.mobile.secondsLeft', { s: secondsLeft })}</Typography>
        <LinearProgress
          variant="determinate"
          value={(ready / Math.max(1, total)) * 100}
          sx={{ my: 2, height: 8, borderRadius: 4 }}
        />
        <Typography data-testid="mobile-ready">{t('reach.mobile.ready', { ready, total })}</Typography>
        {accepted ? (
          <Typography sx={{ mt: 2, fontWeight: 700 }} color="success.main">
            {t('reach.mobile.accepted')}
          </Typography>
        ) : (
          <Button
            sx={{ mt: 2, py: 2, fontSize: '1.2rem' }}
            size="large"
            variant="contained"
            color="success"
            fullWidth
            disabled={q.busy}
            onClick={() => void sendQueue('ready')}
          >
            {t('reach.mobile.accept')}
          </Button>
        )}
        {!accepted && (
          <Button
            sx={{ mt: 1.5 }}
            variant="text"
            color="inherit"
            fullWidth
            disabled={q.busy}
            onClick={() => void sendQueue('decline')}
            data-testid="mobile-decline"
          >
            {t('queue.accept.decline')}
          </Button>
        )}
      </Paper>
    );
  }

  return (
    <Paper sx={{ p: 3, borderRadius: 3, textAlign: 'center' }} data-testid="mobile-queue">
      <Typography sx={{ fontSize: '3.5rem', fontWeight: 800, lineHeight: 1 }} data-testid="mobile-count">
        {q.count}
      </Typography>
      <Typography color="text.secondary">{t('reach.mobile.playersInQueue')}</Typography>
      <Typography sx={{ mt: 2, fontWeight: 700 }}>
        {q.inQueue ? t('reach.mobile.youAreQueued') : t('reach.mobile.notQueued')}
      </Typography>
      {q.kicked && (
        <Typography color="warning.main" sx={{ mt: 1 }}>
          {t('reach.mobile.kicked')}
        </Typography>
      )}
      {q.timedOut && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('reach.mobile.timeout')}
        </Typography>
      )}
      {!voiceLinked && !q.inQueue && (
        <Typography color="warning.main" sx={{ mt: 1 }} data-testid="mobile-voice-missing">
          {t('reach.mobile.voiceMissing')}
        </Typography>
      )}
      {!q.inQueue && cooldown ? (
        <Box sx={{ mt: 2 }}>
          <CooldownNotice align="center" />
        </Box>
      ) : (
        <Button
          sx={{ mt: 2, py: 1.5, fontSize: '1.1rem' }}
          size="large"
          variant={q.inQueue ? 'outlined' : 'contained'}
          color={q.inQueue ? 'error' : 'primary'}
          fullWidth
          disabled={q.busy || (!voiceLinked && !q.inQueue)}
          onClick={() => void sendQueue(q.inQueue ? 'leave' : 'join')}
        >
          {q.inQueue ? t('reach.mobile.leave') : t('reach.mobile.play')}
        </Button>
      )}
    </Paper>
  );
}

function SignedIn() {
  const { matchId, openMatch } = useMobileQueueEvents();
  return (
    <Stack spacing={2}>
      <QueueCard matchId={matchId} openMatch={openMatch} />
      <PushCard />
    </Stack>
  );
}

export function MobileApp() {
  const { t } = useTranslation();
  useManifest();
  const linkState = useOneTimeLogin();
  const loggedIn = useSession((s) => s.isTokenSet);
  const name = useSession((s) => s.user?.name as string | undefined);
  return (
    <Box
      sx={{
        minHeight: '100dvh',
        bgcolor: 'background.default',
        color: 'text.primary',
        px: 2,
        pt: 'max(16px, env(safe-area-inset-top))',
        pb: 'max(16px, env(safe-area-inset-bottom))',
      }}
    >
      {/* The page's main landmark: the phone app has no navigation around it (WCAG 1.3.1, 2.4.1). */}
      <Box component="main" sx={{ maxWidth: 480, mx: 'auto' }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Logo />
          {loggedIn && name && (
            <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: '50%' }}>
              {name}
            </Typography>
          )}
        </Stack>
        {linkState === 'exchanging' ? (
          <Stack sx={{ alignItems: 'center', py: 6 }} spacing={2}>
            <CircularProgress aria-labelledby="mobile-signing-in" />
            <Typography id="mobile-signing-in">{t('reach.mobile.signingIn')}</Typography>
          </Stack>
        ) : loggedIn ? (
          <SignedIn />
        ) : (
          <Paper sx={{ p: 3, borderRadius: 3 }} data-testid="mobile-signed-out">
            <Typography sx={{ fontWeight: 800, mb: 1 }}>{t('reach.mobile.signedOutTitle')}</Typography>
            {linkState === 'invalid' && (
              <Typography color="error.main" sx={{ mb: 1 }}>
                {t('reach.mobile.linkInvalid')}
              </Typography>
            )}
            <Typography color="text.secondary">{t('reach.mobile.signedOut')}</Typography>
          </Paper>
        )}
        <Box sx={{ textAlign: 'center', mt: 3 }}>
          <Button
            component={Link}
            to={loggedIn ? '/home' : '/'}
            size="small"
            sx={{ color: 'text.secondary' }}
          >
            {t('reach.mobile.desktop')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
