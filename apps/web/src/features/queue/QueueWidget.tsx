/**
 * The queue widget (docs/contract.md §4 "Queue and match"): Play / Leave with the public count and the time
 * in queue, the accept dialog (not dismissable, n/10 ready, countdown, looping sound), the kick
 * and timeout dialogs, the Steam dialog when joining needs a Steam account (MatchZy servers),
 * navigation to the match room on start; while queued, how fast the queue usually fills at this hour
 * (features/insights). Also hosts the admins' help toasts.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatMmSs } from '../../ui/countdown';
import { useNow } from '../../ui/useNow';
import { visuallyHidden } from '../../ui/visuallyHidden';
import { openVoiceLinkDialog } from '../accounts';
import { ArenaQueueButton } from '../arena';
import { QueueEta } from '../insights';
import { BannedNotice, useBan } from '../moderation';
import { useSession } from '../session';
import { useSocketState } from '../socket';
import { AcceptDialog, KickDialog, TimeoutDialog } from './AcceptDialog';
import { AdminHelpToasts } from './AdminHelpToasts';
import { NotificationOptIn } from './acceptAlerts';
import { restoreQueue, sendQueue } from './actions';
import { CooldownNotice, useRunningCooldown } from './CooldownNotice';
import { useQueueSocketEvents } from './events';
import { SteamRequiredDialog } from './SteamRequiredDialog';
import { useQueue } from './state';

function useElapsed(since: number | null): string {
  const now = useNow(1000, since !== null);
  return since === null ? '' : formatMmSs(Math.max(0, (now - since) / 1000));
}

function useQueueEvents() {
  const navigate = useNavigate();
  const authenticated = useSocketState((s) => s.authenticated);
  useEffect(() => {
    if (authenticated) void restoreQueue().catch(() => undefined);
  }, [authenticated]);
  useQueueSocketEvents({ onMatchStart: (matchId) => navigate(`/match/${matchId}`) });
}

const QUEUE_WIDGET_TOP_VAR = '--op-queue-widget-top';

/**
 * Publishes how far the widget reaches up from the bottom of the window (its top edge) as the CSS
 * variable --op-queue-widget-top on the document, which the layout's bottom padding and the
 * page's scroll padding follow (AppLayout.module.css): a page scrolled to its end, or an element
 * scrolled into view by keyboard focus, is never left under the widget.
 */
function usePublishedTop(element: HTMLElement | null) {
  useLayoutEffect(() => {
    if (!element) return;
    const root = document.documentElement;
    const publish = () => {
      const top = element.getBoundingClientRect().top;
      root.style.setProperty(QUEUE_WIDGET_TOP_VAR, `${Math.max(0, Math.ceil(window.innerHeight - top))}px`);
    };
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(element);
    window.addEventListener('resize', publish);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', publish);
      root.style.removeProperty(QUEUE_WIDGET_TOP_VAR);
    };
  }, [element]);
}

export function QueueWidget() {
  const { t } = useTranslation();
  useQueueEvents();
  const { inQueue, count, joinedAt, busy } = useQueue();
  // While an accept phase runs the dialog is the only way out (Accept / Decline).
  const accepting = useQueue((s) => s.phase !== null);
  const linked = useSession((s) => typeof s.user?.teamSpeakId === 'string' && s.user.teamSpeakId !== '');
  const inMatch = useSession((s) => Boolean(s.user?.status?.match?.active));
  const elapsed = useElapsed(inQueue ? joinedAt : null);
  const cooldown = useRunningCooldown();
  const ban = useBan();
  // Phones get one line (issue 17 item 8): short count, no caption or estimate, the secondary
  // actions (notifications, arena) as icon buttons.
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const [paper, setPaper] = useState<HTMLDivElement | null>(null);
  usePublishedTop(inMatch ? null : paper);

  const play = () => (linked ? void sendQueue('join') : openVoiceLinkDialog());
  const title = accepting ? t('queue.accept.title') : inQueue ? t('queue.searching') : t('queue.title');

  return (
    <>
      {!inMatch && (
        <Paper
          ref={setPaper}
          elevation={8}
          data-testid="queue-widget"
          data-layout={phone ? 'phone' : 'wide'}
          sx={{
            position: 'fixed',
            zIndex: 1050,
            bottom: { xs: 12, md: 20 },
            left: { xs: 12, md: 'calc(var(--op-navigation-width) + 20px)' },
            right: { xs: 84, sm: 'auto' },
            display: 'flex',
            alignItems: 'center',
            flexWrap: phone ? 'nowrap' : 'wrap',
            gap: phone ? 0.75 : 1.5,
            rowGap: 0.25,
            px: phone ? 1.25 : 1.5,
            py: 1,
            borderRadius: 3,
            border: '1px solid',
            borderColor: inQueue ? 'primary.main' : 'divider',
            background: inQueue
              ? 'linear-gradient(135deg, rgba(255,122,24,0.18), rgba(20,26,38,0.96) 60%)'
              : 'rgba(20,26,38,0.96)',
            backdropFilter: 'blur(10px)',
          }}
        >
          <Box sx={{ display: 'flex', flexDirection: 'column', minWidth: 0, flex: 1 }}>
            <Typography
              variant="caption"
              data-testid="queue-title"
              // On a phone the caption is read out but not shown (the accept dialog says "Match
              // found!" itself); the line below says what matters.
              sx={
                phone && !accepting
                  ? visuallyHidden
                  : {
                      color: 'text.secondary',
                      textTransform: 'uppercase',
                      letterSpacing: '0.08em',
                      fontWeight: 700,
                      whiteSpace: phone ? 'nowrap' : undefined,
                    }
              }
            >
              {title}
            </Typography>
            <Typography
              component="div"
              // Wide: wraps rather than overflowing under the button ("2 in der Warteschlange"
              // breaks between its words). Phone: one line with the short count ("2 warten").
              sx={{
                display: 'flex',
                flexWrap: phone ? 'nowrap' : 'wrap',
                alignItems: 'center',
                columnGap: phone ? 0.75 : 1,
                fontWeight: 700,
                fontSize: phone ? '0.9rem' : undefined,
                whiteSpace: phone ? 'nowrap' : undefined,
                '& > [data-testid="queue-elapsed"]': { whiteSpace: 'nowrap' },
              }}
            >
              {inQueue && !phone && <CircularProgress size={14} thickness={6} aria-hidden />}
              {inQueue && (
                <Box component="span" data-testid="queue-elapsed" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {elapsed}
                </Box>
              )}
              <Box
                component="span"
                data-testid="queue-count"
                sx={{
                  color: 'text.secondary',
                  fontWeight: 600,
                  ...(phone ? { overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 } : {}),
                }}
              >
                {t(phone ? 'queue.countShort' : 'queue.count', { count })}
              </Box>
            </Typography>
            {/* On a phone the estimate's sentence doubled the widget's height over every page. */}
            {inQueue && !accepting && (
              <Box sx={{ display: phone ? 'none' : 'block' }}>
                <QueueEta count={count} />
              </Box>
            )}
          </Box>
          {inQueue && !accepting && phone && <ArenaQueueButton compact />}
          {inQueue && !accepting && phone && <NotificationOptIn compact />}
          {accepting ? null : inQueue ? (
            <Button
              variant="outlined"
              color="inherit"
              size={phone ? 'small' : 'medium'}
              disabled={busy}
              onClick={() => void sendQueue('leave')}
              sx={{ flexShrink: 0 }}
            >
              {t('queue.leave')}
            </Button>
          ) : ban ? (
            <BannedNotice ban={ban} />
          ) : cooldown ? (
            <CooldownNotice />
          ) : (
            <Button
              variant="contained"
              disabled={busy}
              onClick={play}
              title={linked ? undefined : t('queue.linkFirst')}
              aria-describedby={linked ? undefined : 'queue-link-hint'}
              // Dimmed until the voice identity is linked (a tap explains why): inactive, as the
              // dimming shows, so screen readers say so and contrast rules do not apply.
              aria-disabled={linked ? undefined : true}
              sx={[
                { px: phone ? 2.5 : 3, flexShrink: 0 },
                linked ? {} : { opacity: 0.55, filter: 'grayscale(0.6)' },
              ]}
            >
              {t('queue.play')}
            </Button>
          )}
          {inQueue && !accepting && !phone && <NotificationOptIn sx={{ flexBasis: '100%' }} />}
          {inQueue && !accepting && !phone && <ArenaQueueButton />}
          {!linked && (
            <Box id="queue-link-hint" sx={{ display: 'none' }}>
              {t('queue.linkFirst')}
            </Box>
          )}
        </Paper>
      )}
      <AcceptDialog />
      <KickDialog />
      <TimeoutDialog />
      <SteamRequiredDialog />
      <AdminHelpToasts />
    </>
  );
}
