/**
 * While the match waits for its players (MATCH_STATE.connect): who the game server reports as on
 * it, the time left to join, and — once someone missed it — that their slot is offered to the
 * queue until the offer ends.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { MatchState } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { Timer } from '../../ui/Timer';
import { TEAM_COLOURS } from './MatchHeader';

export function ConnectPanel({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const connect = state.connect;
  if (!connect) return null;
  const players = [
    ...state.teamOne.players.map((p) => ({ ...p, team: 'teamOne' as const })),
    ...state.teamTwo.players.map((p) => ({ ...p, team: 'teamTwo' as const })),
  ];
  const on = new Set(connect.onServer);
  const noShows = new Set(connect.noShows);
  const substitutes = noShows.size > 0;
  return (
    <Box
      data-testid="connect-panel"
      sx={{
        p: 2,
        borderRadius: 2,
        bgcolor: 'rgba(255,255,255,0.04)',
        display: 'grid',
        gap: 1.5,
        minWidth: 0,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
        {/* The title wraps: "Warten auf alle Spieler auf dem Server" is wider than a phone. */}
        <Typography variant="h6" sx={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
          {substitutes ? t('match.serverWait.substituteTitle') : t('match.serverWait.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('match.serverWait.count', { on: on.size, total: players.length })}
        </Typography>
      </Box>
      <Typography variant="body2">
        {substitutes ? t('match.serverWait.substituteHint') : t('match.serverWait.hint')}{' '}
        {connect.deadline !== null && (
          <>
            {t('match.serverWait.timeLeft')} <Timer deadline={connect.deadline} />
          </>
        )}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 0.75,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {players.map((p) => {
          const status = noShows.has(p._id) ? 'noShow' : on.has(p._id) ? 'onServer' : 'waiting';
          return (
            <Box
              key={p._id}
              data-testid={`connect-${status}`}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                minWidth: 0,
                pl: 1,
                borderLeft: `3px solid ${TEAM_COLOURS[p.team]}`,
              }}
            >
              <Typography noWrap sx={{ flex: 1, minWidth: 0 }}>
                {p.name}
              </Typography>
              <Chip
                sx={{ flexShrink: 0 }}
                size="small"
                label={t(`match.serverWait.${status}`)}
                color={status === 'onServer' ? 'success' : status === 'noShow' ? 'error' : 'default'}
                variant={status === 'waiting' ? 'outlined' : 'filled'}
              />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
