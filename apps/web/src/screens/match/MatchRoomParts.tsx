/**
 * The match room's MUI parts, mounted once its top (MatchScreen: header, result) has painted: the
 * tabs row with the help, report and admin buttons, the rest of the main column (veto, pick pool,
 * connect, map and server, voice, teams or the scoreboard), the chat column, and the refusals.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { MatchMessage, MatchState } from '@openpug/shared';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { WinProbability } from '../../features/insights';
import { canAskForHelp, isParticipant } from '../../features/matches/permissions';
import { ReportButton } from '../../features/reports/ReportButton';
import { useSession } from '../../features/session/store';
import { type AppSocket, emitWithAck } from '../../features/socket';
import { AdminCancelButton } from './AdminCancelButton';
import { AdminMatchTools } from './AdminMatchTools';
import { ConnectPanel } from './ConnectPanel';
import { LeaversPanel } from './LeaversPanel';
import { HelpButton, MapPanel, Scoreboard, ServerBox } from './Live';
import { MapVeto, PickPool, TeamColumn, TurnBanner } from './Lobby';
import { TEAM_COLOURS } from './MatchHeader';
import { VoicePanel } from './VoicePanel';

const MatchChat = lazy(() => import('../../features/chat/MatchChat').then((m) => ({ default: m.MatchChat })));

export type MatchTab = 'overview' | 'scoreboard';

/** What every part of a joined room gets from the screen. */
export interface RoomPartProps {
  state: MatchState;
  socket: AppSocket | null;
  myId: string | null;
}

const isLive = (state: MatchState) => state.status === 'active' || state.status === 'finished';

function sendMessage(socket: AppSocket | null, message: MatchMessage) {
  return emitWithAck(socket, 'match-message', message);
}

function Panel({ children, title }: { children: ReactNode; title?: string }) {
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

/** Refusals that mean the match does not exist (unknown id, or no id at all). */
const NOT_FOUND_KEYS = new Set(['NOT_FOUND', 'ID_MALFORMED']);

/** A refused join: an unknown match says so and offers the way back; any other refusal is shown. */
export function MatchRoomError({ error }: { error: string }) {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  if (!NOT_FOUND_KEYS.has(error)) return <Alert severity="error">{t(error)}</Alert>;
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

/** The tabs (overview, scoreboard once live) and the buttons beside them. */
export function MatchToolbar({
  state,
  socket,
  myId,
  tab,
  onTab,
}: RoomPartProps & { tab: MatchTab; onTab: (tab: MatchTab) => void }) {
  const { t } = useTranslation();
  const matchId = state._id;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Tabs
        value={tab}
        onChange={(_, v: MatchTab) => onTab(v)}
        // max-content: on a phone the help / cancel buttons wrap below instead of squeezing a tab.
        sx={{ flex: 1, minWidth: 'max-content', minHeight: 40, '& .MuiTab-root': { minHeight: 40 } }}
      >
        <Tab value="overview" label={t('match.tabs.overview')} />
        <Tab
          value="scoreboard"
          label={t('match.tabs.scoreboard')}
          disabled={!isLive(state)}
          data-testid="tab-scoreboard"
        />
      </Tabs>
      {canAskForHelp(state, myId) && (
        <HelpButton
          onSend={(msg) =>
            sendMessage(socket, { event: 'help', data: { matchId, msg } }).then(() => undefined)
          }
        />
      )}
      {isParticipant(state, myId) && (
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
  );
}

/** The main column below the result: the scoreboard tab, or the overview's panels for this status. */
export function MatchMain({ state, socket, myId, tab }: RoomPartProps & { tab: MatchTab }) {
  const { t } = useTranslation();
  const matchId = state._id;
  const live = isLive(state);
  const participant = isParticipant(state, myId);
  const send = (message: MatchMessage) => void sendMessage(socket, message).catch(() => undefined);
  if (tab === 'scoreboard' && live)
    return (
      <Panel>
        <Scoreboard state={state} />
      </Panel>
    );
  return (
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
            onBan={(mapKey) => send({ event: 'ban-map', data: { matchId, mapKey } })}
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
            onPick={(pickedId) => send({ event: 'pick-player', data: { matchId, pickedId } })}
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
  );
}

/** The chat column (beside the main one on wide screens, below it on others). */
export function MatchSide({ state, myId }: RoomPartProps) {
  const { t } = useTranslation();
  return (
    <Panel title={t('match.chat')}>
      <Box sx={{ height: { xs: 420, xl: 520 }, display: 'flex', flexDirection: 'column' }}>
        <Suspense fallback={<CircularProgress size={20} aria-label={t('chat.loading')} />}>
          <MatchChat
            matchId={state._id}
            captain={state.teamOne.captain._id === myId || state.teamTwo.captain._id === myId}
            title={t('match.chatTitle', { one: state.teamOne.name, two: state.teamTwo.name })}
          />
        </Suspense>
      </Box>
    </Panel>
  );
}
