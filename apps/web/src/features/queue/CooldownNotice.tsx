/**
 * A running queue cooldown: why, and a countdown to when the player may queue again. Shown in
 * place of the Play button (queue widget) and on the phone app; gone by itself when it ends.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDuration, secondsLeft } from '../../ui/countdown';
import { useNow } from '../../ui/useNow';
import { useQueue } from './state';

/** The running cooldown, or null once its end has passed. */
export function useRunningCooldown() {
  const cooldown = useQueue((s) => s.cooldown);
  const now = useNow(1000, cooldown !== null);
  return cooldown && cooldown.endsAt > now ? { ...cooldown, left: secondsLeft(cooldown.endsAt, now) } : null;
}

export function CooldownNotice({ align = 'left' }: { align?: 'left' | 'center' }) {
  const { t } = useTranslation();
  const cooldown = useRunningCooldown();
  if (!cooldown) return null;
  return (
    <Box data-testid="queue-cooldown" role="status" sx={{ textAlign: align, minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 700, color: 'warning.main' }}>
        {t(`queue.cooldown.${cooldown.kind}`)}
      </Typography>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {t('queue.cooldown.until', { time: formatDuration(cooldown.left) })}
      </Typography>
    </Box>
  );
}
