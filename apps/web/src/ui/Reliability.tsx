/**
 * The reliability score (docs/contract.md §4 "Reliability"): the share of a player's last 50
 * matches they accepted, joined and played to the end, as "96 %" — green from 90 %, amber from
 * 70 %, red below; "New" for a player without any match yet. The hint says what it counts.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The theme colour of a score: success from 90 %, warning from 70 %, error below. */
export function reliabilityColour(percent: number): 'success.main' | 'warning.main' | 'error.main' {
  return percent >= 90 ? 'success.main' : percent >= 70 ? 'warning.main' : 'error.main';
}

/** The value alone (a caption line in the draft pool, a stat on the card). */
export function ReliabilityValue({ percent }: { percent: number | null | undefined }) {
  const { t } = useTranslation();
  const known = typeof percent === 'number';
  return (
    <Box
      component="span"
      data-testid="reliability"
      title={t('reliability.hint')}
      sx={{
        fontWeight: 700,
        color: known ? reliabilityColour(percent) : 'text.secondary',
        whiteSpace: 'nowrap',
      }}
    >
      {known ? t('reliability.value', { percent }) : t('reliability.none')}
    </Box>
  );
}

/** Label over value, as the card's other figures. */
export function ReliabilityStat({
  percent,
  size = 'body',
}: {
  percent: number | null | undefined;
  size?: 'body' | 'large';
}) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {t('reliability.label')}
      </Typography>
      <Typography sx={{ fontSize: size === 'large' ? '1.25rem' : undefined, fontWeight: 800 }}>
        <ReliabilityValue percent={percent} />
      </Typography>
    </Box>
  );
}
