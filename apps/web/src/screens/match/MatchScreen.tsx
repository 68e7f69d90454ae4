/**
 * The match room (/match/:matchId, public; docs/contract.md §2 match page). Header with both captains and the
 * countdown; lobby (team columns, pick pool), map veto, active (map, score, connect/GOTV), finished
 * and cancelled views; scoreboard tab; help button; match chat. Browser tab title "Match Page".
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { MATCH_PAGE_TITLE, type MatchMessage, type MatchState } from '@openpug/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { WinProbability } from '../../features/insights';
import { canAskForHelp, isParticipant } from '../../features/matches/permissions';
import { useMatchRoom } from '../../features/matches/room';
import { ReportButton } from '../../features/reports/ReportButton';
import { useSession } from '../../features/session/store';
import { emitWithAck } from '../../features/socket';
import { ScreenPage } from '../../ui/ScreenPage';
import { AdminCancelButton } from './AdminCancelButton';
import { AdminMatchTools } from './AdminMatchTools';
import { ConnectPanel } from './ConnectPanel';
import { LeaversPanel } from './LeaversPanel';
import { HelpButton, MapPanel, Scoreboard, ServerBox } from './Live';
import { MapVeto, PickPool, TeamColumn, TurnBanner } from './Lobby';
import { MatchHeader, TEAM_COLOURS } from './MatchHeader';
import { VoicePanel } from './VoicePanel';

const MatchChat = lazy(() => import('../../features/chat/MatchChat').then((m) => ({ default: m.MatchChat })));

function Panel({ children, title }: { children: React.ReactNode; title?: string }) {
  return (
    <Box
      sx={{
        p: { xs: 1.5, sm: 2 },
        borderRadius: 3,
        border: '1px solid',
        borderColor: 'divider',
        bgcolor: 'rgba(255,255,255,0.02)',
      }}
    >
      {title && (
        <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 800, mb: 1.5 }}>
          {title}
        </Typography>
      )}
      {children}
    </Box>
  );
}

function Result({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const winner = state.winner;
  return (
    <Box
      data-testid="match-finished"
      sx={{
        p: 2,
        borderRadius: 3,
        textAlign: 'center',
        border: '1px solid',
        borderColor: winner && winner !== 'draw' ? TEAM_COLOURS[winner] : 'divider',
        bgcolor: 'rgba(255,255,255,0.03)',
      }}
    >
      <Typography sx={{ fontWeight: 900, fontSize: '1.4rem' }}>
        {winner === 'draw' || !winner ? t('match.draw') : t('match.winner', { team: state[winner].name })}
      </Typography>
      <Typography color="text.secondary">{state.map?.name}</Typography>
    </Box>
  );
}

/** Refusals that mean the match does not exist (unknown id, or no id at all). */
const NOT_FOUND_KEYS = new Set(['NOT_FOUND', 'ID_MALFORMED']);

/** An unknown match: say so, and offer the way back. */
function MatchNotFound() {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  return (
    <Alert
      severity="info"
      data-testid="match-not-found"
      action={
        <Button component={RouterLink} to={loggedIn ? '/home' : '/'} color="inherit" size="small">
          {t('match.goHome')}
        </Button>
      }
      sx={{ alignItems: 'center' }}
    >
      <AlertTitle>{t('match.notFound')}</AlertTitle>
      {t('match.notFoundText')}
    </Alert>
  );
}

function Room({ matchId }: { matchId: string }) {
  const { t } = useTranslation();
  const myId = useSession((s) => s.user?._id ?? null);
  const { state, error, socket } = useMatchRoom(matchId);
  const [tab, setTab] = useState<'overview' | 'scoreboard'>('overview');

  if (error && !state)
    return NOT_FOUND_KEYS.has(error) ? <MatchNotFound /> : <Alert severity="error">{t(error)}</Alert>;
  if (!state)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('match.loading')} />
      </Box>
    );

  const send = (message: MatchMessage) => emitWithAck(socket, 'match-message', message);
  const live = state.status === 'active' || state.status === 'finished';
  const participant = isParticipant(state, myId);

  return (
    <>
      <MatchHeader state={state} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <Tabs
          value={tab}
          onChange={(_, v) => setTab(v)}
          // max-content: on a phone the help / cancel buttons wrap below instead of squeezing a tab.
          sx={{ flex: 1, minWidth: 'max-content', minHeight: 40, '& .MuiTab-root': { minHeight: 40 } }}
        >
          <Tab value="overview" label={t('match.tabs.overview')} />
          <Tab
            value="scoreboard"
            label={t('match.tabs.scoreboard')}
            disabled={!live}
            data-testid="tab-scoreboard"
          />
        </Tabs>
        {canAskForHelp(state, myId) && (
          <HelpButton
            onSend={(msg) => send({ event: 'help', data: { matchId, msg } }).then(() => undefined)}
          />
        )}
        {participant && (
          <ReportButton
            matchId={matchId}
            candidates={[...state.teamOne.players, ...state.teamTwo.players, ...state.pool].filter(
              (p) => p._id !== myId,
            )}
          />
        )}
        <AdminMatchTools state={state} />
        <AdminCancelButton state={state} />
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: 'minmax(0, 1fr) 340px' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          {tab === 'scoreboard' && live ? (
            <Panel>
              <Scoreboard state={state} />
            </Panel>
          ) : (
            <>
              {state.status === 'cancelled' && (
                <Alert severity="error" data-testid="match-cancelled">
                  <AlertTitle>{t('match.cancelled')}</AlertTitle>
                  {state.cancelReason ? `${t(`match.cancelReason.${state.cancelReason}`)} ` : ''}
                  {t('match.cancelledNoElo')}
                </Alert>
              )}
              {(state.status === 'playerveto' || state.status === 'mapveto') && (
                <TurnBanner state={state} myId={myId} />
              )}
              {state.status === 'finished' && <Result state={state} />}
              {state.connect && <ConnectPanel state={state} />}
              <LeaversPanel
                state={state}
                myId={myId}
                onRequest={(userId) => emitWithAck(socket, 'substitute-request', { matchId, userId })}
              />
              {state.status === 'mapveto' && (
                <Panel title={t('match.mapVeto')}>
                  <MapVeto
                    state={state}
                    myId={myId}
                    onBan={(mapKey) =>
                      void send({ event: 'ban-map', data: { matchId, mapKey } }).catch(() => undefined)
                    }
                  />
                </Panel>
              )}
              {live && (
                <Box
                  sx={{
                    display: 'grid',
                    gap: 2,
                    alignItems: 'start',
                    gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
                  }}
                >
                  <MapPanel state={state} />
                  {state.status === 'active' && (
                    <Panel title={participant ? t('match.yourServer') : t('match.watch')}>
                      <ServerBox state={state} />
                    </Panel>
                  )}
                </Box>
              )}
              {state.status === 'active' && state.voice && (
                <Panel title={t('match.voice.title')}>
                  <VoicePanel state={state} />
                </Panel>
              )}
              {state.status === 'playerveto' && (
                <Panel>
                  <PickPool
                    state={state}
                    myId={myId}
                    onPick={(pickedId) =>
                      void send({ event: 'pick-player', data: { matchId, pickedId } }).catch(() => undefined)
                    }
                  />
                </Panel>
              )}
              <Panel>
                {(state.status === 'playerveto' || state.status === 'mapveto') && (
                  <WinProbability state={state} colours={TEAM_COLOURS} />
                )}
                <Box sx={{ display: 'flex', gap: { xs: 1, sm: 2 } }}>
                  <TeamColumn state={state} team="teamOne" myId={myId} />
                  <TeamColumn state={state} team="teamTwo" myId={myId} />
                </Box>
              </Panel>
            </>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Panel title={t('match.chat')}>
            <Box sx={{ height: { xs: 420, xl: 520 }, display: 'flex', flexDirection: 'column' }}>
              <Suspense fallback={<CircularProgress size={20} aria-label={t('chat.loading')} />}>
                <MatchChat
                  matchId={matchId}
                  captain={state.teamOne.captain._id === myId || state.teamTwo.captain._id === myId}
                  title={t('match.chatTitle', { one: state.teamOne.name, two: state.teamTwo.name })}
                />
              </Suspense>
            </Box>
          </Panel>
        </Box>
      </Box>
    </>
  );
}

export function MatchScreen() {
  const { t } = useTranslation();
  const { matchId = '' } = useParams();
  useEffect(() => {
    const previous = document.title;
    document.title = MATCH_PAGE_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);
  return (
    <ScreenPage title={t('screens.match.title')}>
      <Room key={matchId} matchId={matchId} />
    </ScreenPage>
  );
}
