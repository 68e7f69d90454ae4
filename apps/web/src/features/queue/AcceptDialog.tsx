/** Accept phase, aborted-game and timeout dialogs (docs/contract.md §4 "Queue and match", steps 3–5). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { DEFAULT_SOUND } from '@openpug/shared';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isUrgent } from '../../ui/countdown';
import { Timer, useSecondsLeft } from '../../ui/Timer';
import { UserAvatar } from '../../ui/UserAvatar';
import { soundUrl } from '../accounts';
import { useSession } from '../session';
import { AcceptAlertNotice, useAcceptAlerts } from './acceptAlerts';
import { sendQueue } from './actions';
import { dispatchQueue, hasAccepted, readyCount, TIMEOUT_DIALOG_MS, useQueue } from './state';

function Check() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

export function AcceptDialog() {
  const { t } = useTranslation();
  const phase = useQueue((s) => s.phase);
  const busy = useQueue((s) => s.busy);
  const me = useSession((s) => s.user);
  const sound = typeof me?.sound === 'string' && me.sound ? me.sound : DEFAULT_SOUND;
  const accepted = phase ? hasAccepted(phase, me?._id) : false;
  const alerts = useAcceptAlerts(phase !== null && !accepted, soundUrl(sound), phase?.deadline ?? null);
  const left = useSecondsLeft(phase?.deadline ?? null);
  // The bar's full length: the time there was when this phase's deadline first arrived.
  const deadline = phase?.deadline ?? null;
  const fullSeconds = useMemo(
    () => (deadline === null ? 1 : Math.max(1, Math.ceil((deadline - Date.now()) / 1000))),
    [deadline],
  );
  if (!phase) return null;
  const ready = readyCount(phase);
  const total = phase.players.length;
  return (
    <Dialog
      open
      onClose={() => undefined}
      aria-labelledby="accept-title"
      slotProps={{ paper: { sx: { width: 520, maxWidth: 'calc(100% - 24px)', m: 1.5, overflow: 'hidden' } } }}
      data-testid="accept-dialog"
    >
      {/* The countdown's bar repeats the Timer below (which screen readers get): decorative. */}
      <LinearProgress
        aria-hidden
        variant="determinate"
        value={Math.min(100, (left / fullSeconds) * 100)}
        color={isUrgent(left) ? 'error' : 'primary'}
        sx={{ height: 4 }}
      />
      <DialogTitle id="accept-title" sx={{ textAlign: 'center', pt: 3, pb: 0 }}>
        <Typography
          component="span"
          variant="h2"
          sx={{ display: 'block', fontSize: '1.6rem', fontWeight: 800 }}
        >
          {t('queue.accept.title')}
        </Typography>
      </DialogTitle>
      <DialogContent sx={{ textAlign: 'center', pb: 1 }}>
        {!accepted && <AcceptAlertNotice alerts={alerts} />}
        <Box sx={{ my: 1 }}>
          <Timer deadline={phase.deadline} size="2.4rem" />
        </Box>
        <Typography data-testid="accept-ready" sx={{ fontWeight: 700, mb: 2 }}>
          {t('queue.accept.ready', { ready, total })}
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(5, 1fr)',
            gap: { xs: 1, sm: 1.5 },
            justifyItems: 'center',
          }}
        >
          {phase.players.map((p) => (
            <Box
              key={p.userId}
              title={p.name}
              sx={{
                position: 'relative',
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                minWidth: 0,
              }}
            >
              <Box
                sx={{
                  borderRadius: '50%',
                  p: '3px',
                  background: p.accepted
                    ? 'linear-gradient(135deg,#2ecc71,#1e9e57)'
                    : 'rgba(255,255,255,0.08)',
                  transition: 'background 250ms',
                  opacity: p.accepted ? 1 : 0.65,
                }}
              >
                <UserAvatar user={{ _id: p.userId, name: p.name, avatar: p.avatar }} size={44} />
              </Box>
              {p.accepted && (
                <Box
                  // An image with a name: a plain div may not carry aria-label (axe aria-prohibited-attr).
                  role="img"
                  aria-label={t('queue.accept.accepted')}
                  sx={{
                    position: 'absolute',
                    top: 32,
                    right: -2,
                    width: 18,
                    height: 18,
                    borderRadius: '50%',
                    bgcolor: '#2ecc71',
                    color: '#06140c',
                    display: 'grid',
                    placeItems: 'center',
                    border: '2px solid #141a26',
                  }}
                >
                  <Check />
                </Box>
              )}
              <Typography
                variant="caption"
                noWrap
                sx={{
                  maxWidth: { xs: 58, sm: 80 },
                  mt: 0.5,
                  color: p.userId === me?._id ? 'primary.main' : 'text.secondary',
                }}
              >
                {p.name}
              </Typography>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'center', pb: 3, pt: 2 }}>
        {accepted ? (
          <Typography color="success.main" sx={{ fontWeight: 700 }} data-testid="accept-waiting">
            {t('queue.accept.waiting')}
          </Typography>
        ) : (
          <>
            <Button
              variant="outlined"
              color="inherit"
              size="large"
              disabled={busy}
              onClick={() => void sendQueue('decline')}
              data-testid="accept-decline"
              sx={{ py: 1.5 }}
            >
              {t('queue.accept.decline')}
            </Button>
            <Button
              variant="contained"
              color="success"
              size="large"
              disabled={busy}
              onClick={() => void sendQueue('ready')}
              // Initial focus: Enter accepts at once.
              autoFocus
              sx={{ px: 6, py: 1.5, fontSize: '1.1rem', fontWeight: 800 }}
            >
              {t('queue.accept.button')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

const close = () => dispatchQueue({ type: 'dismiss' });

export function KickDialog() {
  const { t } = useTranslation();
  const kicked = useQueue((s) => s.kicked);
  return (
    <Dialog open={kicked} onClose={close} aria-labelledby="kick-title" data-testid="kick-dialog">
      <DialogTitle id="kick-title">{t('queue.kick.title')}</DialogTitle>
      <DialogContent>
        <Typography>{t('queue.kick.text')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('queue.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function TimeoutDialog() {
  const { t } = useTranslation();
  const unready = useQueue((s) => s.timedOut);
  useEffect(() => {
    if (!unready) return;
    const id = setTimeout(close, TIMEOUT_DIALOG_MS);
    return () => clearTimeout(id);
  }, [unready]);
  return (
    <Dialog
      open={unready !== null}
      onClose={close}
      aria-labelledby="timeout-title"
      data-testid="timeout-dialog"
    >
      <DialogTitle id="timeout-title">{t('queue.timeout.title')}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1.5 }}>{t('queue.timeout.text')}</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {(unready ?? []).map((p) => (
            <Box
              key={p.userId}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                pr: 1.5,
                borderRadius: 5,
                bgcolor: 'action.hover',
              }}
            >
              <UserAvatar user={{ _id: p.userId, name: p.name, avatar: p.avatar }} size={28} />
              <Typography variant="body2">{p.name}</Typography>
            </Box>
          ))}
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
          {t('queue.timeout.keepPlace')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('queue.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
