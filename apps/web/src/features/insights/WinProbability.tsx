/**
 * The draft's win chance (docs/contract.md §4 "Draft fairness"): both teams' win probability from
 * the players picked so far (Elo logistic, docs/contract.md §9), for captains and spectators
 * alike. Percentages in text beside the bar, so it does not rely on colour.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type MatchState, teamWinProbability } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { percentPair } from './rules';

export function WinProbability({
  state,
  colours,
}: {
  state: MatchState;
  colours: Record<'teamOne' | 'teamTwo', string>;
}) {
  const { t } = useTranslation();
  const p = teamWinProbability(
    state.teamOne.players.map((x) => x.elo),
    state.teamTwo.players.map((x) => x.elo),
  );
  const [one, two] = percentPair(p);
  const label = t('insights.winProbability.label', {
    one: state.teamOne.name,
    two: state.teamTwo.name,
    pOne: one,
    pTwo: two,
  });
  return (
    <Box data-testid="win-probability" data-p={p.toFixed(4)} role="group" aria-label={label} sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 0.5 }}>
        <Typography
          sx={{ fontWeight: 800, color: colours.teamOne, fontVariantNumeric: 'tabular-nums' }}
          aria-hidden
        >
          {one} %
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{
            flex: 1,
            textAlign: 'center',
            textTransform: 'uppercase',
            letterSpacing: '0.08em',
            fontWeight: 700,
          }}
          aria-hidden
        >
          {t('insights.winProbability.title')}
        </Typography>
        <Typography
          sx={{ fontWeight: 800, color: colours.teamTwo, fontVariantNumeric: 'tabular-nums' }}
          aria-hidden
        >
          {two} %
        </Typography>
      </Box>
      <Box aria-hidden sx={{ display: 'flex', height: 8, borderRadius: 4, overflow: 'hidden', gap: '2px' }}>
        <Box sx={{ width: `${one}%`, bgcolor: colours.teamOne, transition: 'width 300ms' }} />
        <Box sx={{ flex: 1, bgcolor: colours.teamTwo }} />
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
        {t('insights.winProbability.basis')}
      </Typography>
    </Box>
  );
}
