/**
 * A live match's TeamSpeak channels (MATCH_STATE.voice, participants only; docs/contract.md §4
 * "Match voice channels"): each team's channel name and which of its players the voice server
 * shows in it, as of the server's last poll.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { MatchState, TeamKey } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { TEAM_COLOURS } from './MatchHeader';

const TEAMS: TeamKey[] = ['teamOne', 'teamTwo'];

export function VoicePanel({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const voice = state.voice;
  if (!voice) return null;
  return (
    <Box data-testid="voice-panel" sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {t('match.voice.hint')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {TEAMS.map((team) => {
          const channel = voice[team];
          if (!channel) return null;
          const inChannel = new Set(channel.members);
          return (
            <Box key={team} data-testid={`voice-${team}`} sx={{ display: 'grid', gap: 0.75, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 800, color: TEAM_COLOURS[team], overflowWrap: 'anywhere' }}>
                {state[team].name}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 700 }}>
                {t('match.voice.channel')}
              </Typography>
              <Box
                component="code"
                data-testid="voice-channel-name"
                sx={{
                  px: 1.5,
                  py: 0.75,
                  borderRadius: 1.5,
                  bgcolor: 'rgba(0,0,0,0.35)',
                  overflowWrap: 'anywhere',
                }}
              >
                {channel.name}
              </Box>
              <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5 }}>
                {state[team].players.map((p) => {
                  const here = inChannel.has(p._id);
                  return (
                    <Box
                      component="li"
                      key={p._id}
                      data-testid="voice-player"
                      data-in-channel={here ? 'true' : 'false'}
                      sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}
                    >
                      <Typography noWrap sx={{ flex: 1, minWidth: 0 }}>
                        {p.name}
                      </Typography>
                      <Chip
                        size="small"
                        color={here ? 'success' : 'default'}
                        variant={here ? 'filled' : 'outlined'}
                        label={here ? t('match.voice.inChannel') : t('match.voice.notInChannel')}
                      />
                    </Box>
                  );
                })}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
