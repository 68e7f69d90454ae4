/**
 * Admin: calibration of the draft's win chance (/admin/calibration, docs/contract.md §4 "Draft
 * fairness"). The Brier score and the reliability plot with its table once there are enough
 * finished matches with a prediction; "not enough matches yet" before.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useCalibration } from '../../features/insights/api';
import { ScreenPage } from '../../ui/ScreenPage';
import { ReliabilityPlot } from './ReliabilityPlot';

const pct = (p: number) => `${Math.round(p * 100)} %`;

export function AdminCalibrationScreen() {
  const { t, i18n } = useTranslation();
  const { data } = useCalibration();
  const number = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  return (
    <ScreenPage title={t('insights.calibration.title')}>
      <Stack spacing={2} sx={{ maxWidth: 900 }}>
        <Typography color="text.secondary">{t('insights.calibration.intro')}</Typography>
        {data && data.brier === null && (
          <Alert severity="info" variant="outlined" data-testid="calibration-not-enough">
            {t('insights.calibration.notEnough', { matches: data.matches, min: data.minMatches })}
          </Alert>
        )}
        {data && data.brier !== null && (
          <>
            <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ textTransform: 'uppercase', fontWeight: 700 }}
              >
                {t('insights.calibration.brier')}
              </Typography>
              <Typography sx={{ fontSize: '2rem', fontWeight: 800 }} data-testid="calibration-brier">
                {number.format(data.brier)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('insights.calibration.brierHint', { count: data.matches })}
              </Typography>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Typography component="h2" sx={{ fontWeight: 700, mb: 1 }}>
                {t('insights.calibration.plotTitle')}
              </Typography>
              <Box
                sx={{
                  display: 'grid',
                  gap: 2,
                  // Side by side only where both fit beside the two sidebars; stacked otherwise.
                  gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: 'minmax(0, 420px) minmax(0, 1fr)' },
                  alignItems: 'start',
                }}
              >
                <ReliabilityPlot bins={data.bins} />
                <Box sx={{ overflowX: 'auto', minWidth: 0 }}>
                  <Table
                    size="small"
                    data-testid="calibration-table"
                    sx={{ '& th, & td': { px: { xs: 0.75, sm: 1.5 }, whiteSpace: 'nowrap' } }}
                  >
                    <TableHead>
                      <TableRow>
                        <TableCell>{t('insights.calibration.range')}</TableCell>
                        <TableCell align="right">{t('insights.calibration.matches')}</TableCell>
                        <TableCell align="right">{t('insights.calibration.colPredicted')}</TableCell>
                        <TableCell align="right">{t('insights.calibration.colObserved')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {data.bins.map((b) => (
                        <TableRow key={b.from}>
                          <TableCell>
                            {Math.round(b.from * 100)}–{Math.round(b.to * 100)} %
                          </TableCell>
                          <TableCell align="right">{b.count}</TableCell>
                          <TableCell align="right">{pct(b.predicted)}</TableCell>
                          <TableCell align="right">{pct(b.observed)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              </Box>
            </Paper>
          </>
        )}
      </Stack>
    </ScreenPage>
  );
}
