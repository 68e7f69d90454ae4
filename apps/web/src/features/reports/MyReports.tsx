/**
 * "My reports": the warnings the player received after a report about them (the message only),
 * and the reports they filed, newest first, each with its outcome — in review, action taken, or no
 * action — never what was done or anything else about the reported player.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MyReport, MyReports as MyReportsData } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api';
import { formatDateTime } from '../moderation';
import { MY_REPORTS_KEY } from './ReportDialog';
import { outcomeKey } from './rules';

export function MyReports() {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: MY_REPORTS_KEY,
    queryFn: ({ signal }) => api.get<MyReportsData>('/reports/mine', { signal }),
  });
  if (query.isPending) return <Skeleton variant="rounded" height={120} />;
  const data = query.data;
  if (!data) return null;
  return (
    <Stack spacing={3} data-testid="my-reports">
      {data.warnings.length > 0 && (
        <section aria-labelledby="my-warnings">
          <Typography id="my-warnings" variant="h2" sx={{ fontSize: '1.1rem', fontWeight: 800, mb: 1 }}>
            {t('reports.mine.warnings')}
          </Typography>
          <Stack spacing={1}>
            {data.warnings.map((w) => (
              <Alert key={w._id} severity="warning" data-testid="my-warning">
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {w.message}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(w.at, i18n.language)}
                </Typography>
              </Alert>
            ))}
          </Stack>
        </section>
      )}
      <section aria-labelledby="my-filed">
        <Typography id="my-filed" variant="h2" sx={{ fontSize: '1.1rem', fontWeight: 800, mb: 1 }}>
          {t('reports.mine.filed')}
        </Typography>
        {data.docs.length === 0 && <Typography color="text.secondary">{t('reports.mine.none')}</Typography>}
        <Stack spacing={1}>
          {data.docs.map((r) => (
            <MyReportRow key={r._id} report={r} />
          ))}
        </Stack>
      </section>
    </Stack>
  );
}

function MyReportRow({ report: r }: { report: MyReport }) {
  const { t, i18n } = useTranslation();
  const name = r.reported.name ?? t('friends.unnamed');
  const color = r.outcome === 'action_taken' ? 'success' : r.outcome === 'no_action' ? 'default' : 'info';
  return (
    <Box
      data-testid="my-report"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        p: 1.5,
        bgcolor: 'background.paper',
        minWidth: 0,
      }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
          {r.status === 'open'
            ? t('reports.mine.aboutOpen', { name })
            : t(`reports.mine.about.${r.outcome ?? 'no_action'}`, { name })}
        </Typography>
        <Chip size="small" color={color} label={t(outcomeKey(r))} sx={{ ml: 'auto' }} />
      </Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {t(`reports.categories.${r.category}`)} · {formatDateTime(r.createdAt, i18n.language)}
        {r.matchId && (
          <>
            {' · '}
            <Link to={`/match/${r.matchId}`}>{t('reports.mine.match')}</Link>
          </>
        )}
      </Typography>
      {r.text && (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere', color: 'text.secondary' }}>
          {r.text}
        </Typography>
      )}
    </Box>
  );
}
