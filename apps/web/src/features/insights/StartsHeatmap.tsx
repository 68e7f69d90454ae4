/**
 * "Best time to play" on the home screen (docs/contract.md §4 "Queue insights"): when matches
 * started over the last 4 weeks, weekday × hour in the player's time zone. Not colour alone: each
 * cell's dot grows with the count, the busiest hours are named in text, and the table carries
 * every count for screen readers. 24 columns fit a 390 px phone.
 */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../ui/visuallyHidden';
import { browserTimeZone, useStartsHeatmap } from './api';
import { busiestCells, heatLevel, weekdayNames } from './rules';

const DOT = ['0%', '35%', '55%', '75%', '95%'];
const FILL = [0, 0.1, 0.16, 0.24, 0.32];

function Dot({ level }: { level: number }) {
  return (
    <Box
      aria-hidden
      sx={{
        height: DOT[level],
        aspectRatio: '1',
        borderRadius: '50%',
        bgcolor: 'primary.main',
      }}
    />
  );
}

export function StartsHeatmap() {
  const { t, i18n } = useTranslation();
  const tz = browserTimeZone();
  const { data } = useStartsHeatmap(tz);
  if (!data) return null;
  const days = weekdayNames(i18n.language);
  const max = Math.max(0, ...data.cells.flat());
  const busiest = busiestCells(data.cells);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, borderRadius: 2 }} data-testid="starts-heatmap">
      <Stack spacing={1}>
        <Typography component="h2" sx={{ fontWeight: 700 }}>
          {t('insights.heatmap.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('insights.heatmap.intro', { tz })}
        </Typography>
        {data.total === 0 ? (
          <Typography variant="body2" data-testid="heatmap-empty">
            {t('insights.heatmap.empty')}
          </Typography>
        ) : (
          <>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="heatmap-busiest">
              {t('insights.heatmap.busiest', {
                list: busiest.map((c) => `${days[c.day]} ${c.hour}:00`).join(', '),
              })}
            </Typography>
            <Box
              component="table"
              sx={{
                width: '100%',
                tableLayout: 'fixed',
                borderCollapse: 'separate',
                borderSpacing: '1px',
                '& th, & td': { p: 0 },
              }}
            >
              <Box component="caption" sx={visuallyHidden}>
                {t('insights.heatmap.title')} ({tz})
              </Box>
              <thead>
                <tr>
                  <Box component="th" scope="col" sx={{ width: 30 }}>
                    <Box component="span" sx={visuallyHidden}>
                      {t('insights.heatmap.day')}
                    </Box>
                  </Box>
                  {Array.from({ length: 24 }, (_, hour) => (
                    <Box
                      component="th"
                      scope="col"
                      // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the identity
                      key={hour}
                      sx={{
                        fontSize: '0.65rem',
                        fontWeight: 500,
                        color: 'text.secondary',
                        textAlign: 'left',
                      }}
                    >
                      <Box component="span" aria-hidden sx={{ whiteSpace: 'nowrap' }}>
                        {hour % 6 === 0 ? hour : ''}
                      </Box>
                      <Box component="span" sx={visuallyHidden}>
                        {`${hour}:00`}
                      </Box>
                    </Box>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.cells.map((row, day) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the weekday is the identity
                  <tr key={day}>
                    <Box
                      component="th"
                      scope="row"
                      sx={{ fontSize: '0.7rem', fontWeight: 600, textAlign: 'left', color: 'text.secondary' }}
                    >
                      {days[day]}
                    </Box>
                    {row.map((count, hour) => {
                      const level = heatLevel(count, max);
                      const label = t('insights.heatmap.cell', { day: days[day], hour, count });
                      return (
                        <Box
                          component="td"
                          // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the identity
                          key={hour}
                          title={label}
                          data-count={count}
                          sx={{
                            height: { xs: 12, sm: 18 },
                            borderRadius: '2px',
                            bgcolor: level ? `rgba(255,122,24,${FILL[level]})` : 'rgba(255,255,255,0.04)',
                          }}
                        >
                          <Box sx={{ display: 'grid', placeItems: 'center', width: '100%', height: '100%' }}>
                            <Dot level={level} />
                          </Box>
                          <Box component="span" sx={visuallyHidden}>
                            {label}
                          </Box>
                        </Box>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </Box>
            <Stack
              direction="row"
              spacing={0.75}
              aria-hidden
              sx={{ alignItems: 'center', flexWrap: 'wrap', fontSize: '0.75rem', color: 'text.secondary' }}
            >
              <span>{t('insights.heatmap.legendFewer')}</span>
              {[1, 2, 3, 4].map((level) => (
                <Box
                  key={level}
                  sx={{
                    width: 14,
                    height: 14,
                    borderRadius: '2px',
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: `rgba(255,122,24,${FILL[level]})`,
                  }}
                >
                  <Dot level={level} />
                </Box>
              ))}
              <span>{t('insights.heatmap.legendMore')}</span>
              <Box component="span" sx={{ ml: 'auto !important' }}>
                {t('insights.heatmap.total', { count: data.total })}
              </Box>
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
