import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { MatchPlayer, MatchState, TeamKey } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { Timer } from '../../ui/Timer';
import { UserAvatar } from '../../ui/UserAvatar';

export const TEAM_COLOURS: Record<TeamKey, string> = { teamOne: '#4da3ff', teamTwo: '#ff7a59' };

function Captain({
  player,
  team,
  align,
  active,
}: {
  player: MatchPlayer;
  team: TeamKey;
  align: 'left' | 'right';
  active: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', sm: align === 'left' ? 'row' : 'row-reverse' },
        alignItems: 'center',
        gap: { xs: 0.5, sm: 1.5 },
        minWidth: 0,
        flex: 1,
        textAlign: { xs: 'center', sm: align },
      }}
      data-testid={`captain-${team}`}
    >
      <Box
        sx={{
          borderRadius: '50%',
          p: '3px',
          background: active ? TEAM_COLOURS[team] : 'transparent',
          boxShadow: active ? `0 0 18px ${TEAM_COLOURS[team]}` : 'none',
          transition: 'all 300ms',
          flexShrink: 0,
        }}
      >
        <UserAvatar user={player} size={52} />
      </Box>
      <Box sx={{ minWidth: 0, width: { xs: '100%', sm: 'auto' } }}>
        <Typography
          variant="caption"
          sx={{
            display: { xs: 'none', sm: 'block' },
            color: TEAM_COLOURS[team],
            fontWeight: 800,
            letterSpacing: '0.08em',
          }}
        >
          {t('match.captain')} · {t(`match.${team}`)}
        </Typography>
        <Typography noWrap sx={{ fontWeight: 800, fontSize: { xs: '0.95rem', sm: '1.15rem' } }}>
          {player.name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {player.elo} Elo
        </Typography>
      </Box>
    </Box>
  );
}

export function MatchHeader({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  // A match cancelled once its map was set shows where the game stopped; only the veto counts down.
  const showScore =
    state.status === 'active' ||
    state.status === 'finished' ||
    (state.status === 'cancelled' && state.map !== null);
  const vetoing = state.status === 'playerveto' || state.status === 'mapveto';
  return (
    <Box
      component="header"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 1, sm: 2 },
        p: { xs: 1.5, sm: 2.5 },
        borderRadius: 3,
        border: '1px solid',
        borderColor: 'divider',
        background: `linear-gradient(90deg, ${TEAM_COLOURS.teamOne}22, transparent 35%, transparent 65%, ${TEAM_COLOURS.teamTwo}22)`,
        mb: 2,
      }}
    >
      <Captain player={state.teamOne.captain} team="teamOne" align="left" active={state.turn === 'teamOne'} />
      <Box sx={{ textAlign: 'center', flexShrink: 0, minWidth: { xs: 76, sm: 120 } }}>
        <Chip
          size="small"
          label={t(`match.status.${state.status}`)}
          color={state.status === 'active' ? 'success' : state.status === 'cancelled' ? 'error' : 'default'}
          sx={{ fontWeight: 700, mb: 0.5 }}
          data-testid="match-status"
        />
        {showScore ? (
          <Typography
            data-testid="match-score"
            sx={{
              fontSize: { xs: '1.6rem', sm: '2.2rem' },
              fontWeight: 900,
              fontVariantNumeric: 'tabular-nums',
              lineHeight: 1.1,
            }}
          >
            <Box component="span" sx={{ color: TEAM_COLOURS.teamOne }}>
              {state.score.teamOne}
            </Box>
            <Box component="span" sx={{ color: 'text.secondary', mx: 0.75 }}>
              :
            </Box>
            <Box component="span" sx={{ color: TEAM_COLOURS.teamTwo }}>
              {state.score.teamTwo}
            </Box>
          </Typography>
        ) : (
          vetoing && (
            <Box data-testid="match-countdown">
              <Timer deadline={state.deadline} size="1.8rem" />
            </Box>
          )
        )}
      </Box>
      <Captain
        player={state.teamTwo.captain}
        team="teamTwo"
        align="right"
        active={state.turn === 'teamTwo'}
      />
    </Box>
  );
}
