/**
 * The queue widget's fill estimate (docs/contract.md §4 "Queue insights"): "usually fills in ~N
 * min at this hour" with the number of days it is drawn from, or "not enough data".
 */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useQueueEta } from './api';

export function QueueEta({ count }: { count: number }) {
  const { t } = useTranslation();
  const { data } = useQueueEta(count, true);
  if (!data) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      data-testid="queue-eta"
      data-status={data.status}
      // A width of its own: the widget sizes to its content and must not span the page.
      sx={{ display: 'block', maxWidth: { sm: 300 }, lineHeight: 1.3, mt: 0.25 }}
    >
      {data.status === 'estimate'
        ? t('insights.eta.estimate', { minutes: data.minutes, count: data.days })
        : t('insights.eta.notEnoughData')}
    </Typography>
  );
}
