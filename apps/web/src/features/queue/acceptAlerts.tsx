/**
 * Accept alerts on the desktop (issue 8), used by the queue's accept dialog:
 * - the accept sound loops while the phase runs (also in a background tab, and again after a
 *   reload: the dialog comes back from GET /api/queue);
 * - when the browser blocks audio (autoplay without a user gesture, e.g. right after a reload) the
 *   user sees why and how to allow it, and the sound starts at the next click/key on the page;
 * - a desktop notification when the tab is hidden and permission is granted.
 */
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import type { SxProps, Theme } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { NotificationsIcon } from '../../ui/icons';

function notifySupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Shows the 'game found' notification if the tab is hidden and notifications are allowed. */
export function notifyGameFound(deadline: number): Notification | null {
  if (!notifySupported() || Notification.permission !== 'granted' || !document.hidden) return null;
  const seconds = Math.max(1, Math.round((deadline - Date.now()) / 1000));
  try {
    const n = new Notification(i18n.t('reach.alerts.notifyTitle'), {
      body: i18n.t('reach.alerts.notifyBody', { s: seconds }),
      icon: '/icons/icon-192.png',
      tag: 'openpug-game-found',
      requireInteraction: true,
    });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    return n;
  } catch {
    return null;
  }
}

export interface AcceptAlerts {
  /** The browser refused to start the sound; it starts at the next click or key press. */
  soundBlocked: boolean;
}

export function useAcceptAlerts(playing: boolean, soundUrl: string, deadline: number | null): AcceptAlerts {
  const [soundBlocked, setSoundBlocked] = useState(false);

  useEffect(() => {
    if (!playing) {
      setSoundBlocked(false);
      return;
    }
    const audio = new Audio(soundUrl);
    audio.loop = true;
    let stopped = false;
    const start = () => {
      audio
        .play()
        .then(() => {
          if (!stopped) setSoundBlocked(false);
          document.removeEventListener('pointerdown', start, true);
          document.removeEventListener('keydown', start, true);
        })
        .catch((err: unknown) => {
          if (!stopped && (err as { name?: string })?.name === 'NotAllowedError') setSoundBlocked(true);
        });
    };
    document.addEventListener('pointerdown', start, true);
    document.addEventListener('keydown', start, true);
    start();
    return () => {
      stopped = true;
      document.removeEventListener('pointerdown', start, true);
      document.removeEventListener('keydown', start, true);
      audio.pause();
      audio.src = '';
    };
  }, [playing, soundUrl]);

  // Desktop notification: at the start of the phase, or when the tab is hidden during it.
  useEffect(() => {
    if (!playing || deadline === null) return;
    let shown: Notification | null = notifyGameFound(deadline);
    const onVisibility = () => {
      if (document.hidden && !shown) shown = notifyGameFound(deadline);
      if (!document.hidden && shown) {
        shown.close();
        shown = null;
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      shown?.close();
    };
  }, [playing, deadline]);

  return { soundBlocked };
}

/**
 * The 'sound is blocked' notice, for the accept dialog. No extra buttons (the dialog's only
 * buttons stay Accept and Decline): any click or key on the page starts the sound. The
 * notification opt-in is not here: it would cost seconds of the accept phase (NotificationOptIn).
 */
export function AcceptAlertNotice({ alerts }: { alerts: AcceptAlerts }) {
  const { t } = useTranslation();
  if (!alerts.soundBlocked) return null;
  return (
    <Alert severity="warning" data-testid="sound-blocked" sx={{ mb: 2, textAlign: 'left' }}>
      <strong>{t('reach.alerts.soundBlockedTitle')}</strong> — {t('reach.alerts.soundBlocked')}
    </Alert>
  );
}

/**
 * The desktop-notification opt-in: a small link while the player waits in the queue (never in
 * the accept dialog), shown only while the browser has not been asked yet. `compact` (the queue
 * widget's one line on a phone) makes it a bell button with the same name.
 */
export function NotificationOptIn({ sx, compact = false }: { sx?: SxProps<Theme>; compact?: boolean }) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(() =>
    notifySupported() ? Notification.permission : 'denied',
  );
  if (permission !== 'default') return null;
  const ask = () =>
    void Notification.requestPermission()
      .then(setPermission)
      .catch(() => undefined);
  if (compact)
    return (
      <IconButton
        size="small"
        data-testid="notify-allow"
        aria-label={t('reach.alerts.notifyAllow')}
        title={t('reach.alerts.notifyAsk')}
        onClick={ask}
        sx={[{ flexShrink: 0, color: 'primary.main' }, ...(Array.isArray(sx) ? sx : [sx])]}
      >
        <NotificationsIcon size={20} />
      </IconButton>
    );
  return (
    <Link
      href="#"
      variant="caption"
      data-testid="notify-allow"
      title={t('reach.alerts.notifyAsk')}
      onClick={(e) => {
        e.preventDefault();
        ask();
      }}
      sx={[{ textAlign: 'left', fontWeight: 600 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {t('reach.alerts.notifyAllow')}
    </Link>
  );
}
