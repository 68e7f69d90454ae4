import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { DropItem, Season, SeasonStanding } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { BannerArt, DropArt, RARITY_COLORS } from '../../features/competition/art';
import { dayjs } from '../../features/locale/dayjs';
import { useSession } from '../../features/session';
import { compactTableSx, TableUserLink } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

interface SeasonView {
  season: Season;
  standings: SeasonStanding[];
  prizes: DropItem[];
}

/** /season1: dates, standings (Elo gained inside the season; frozen after the end) and the prizes. */
export function Season1Screen() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?._id);
  const query = useQuery({
    queryKey: ['season', 'season1'],
    queryFn: ({ signal }) => api.get<SeasonView>('/seasons/season1', { signal }),
  });
  const data = query.data;
  return (
    <ScreenPage title={t('screens.season1.title')}>
      {data && (
        <>
          <Paper sx={{ overflow: 'hidden', mb: 3, position: 'relative' }}>
            <BannerArt banner="aurora" height={120} label={data.season.name} />
            <Box
              sx={{
                position: 'absolute',
                inset: 0,
                p: { xs: 2, md: 3 },
                display: 'flex',
                flexDirection: 'column',
                justifyContent: 'center',
              }}
            >
              <Typography sx={{ fontWeight: 800, fontSize: { xs: '1.2rem', md: '1.6rem' }, color: '#fff' }}>
                {data.season.name}
              </Typography>
              <Typography sx={{ color: '#e0e6f0' }} data-testid="season-dates">
                {dayjs(data.season.startsAt).format('D MMM YYYY')} –{' '}
                {dayjs(data.season.endsAt).format('D MMM YYYY')}
              </Typography>
              <Box>
                <Chip
                  size="small"
                  sx={{ mt: 1 }}
                  color={data.season.frozen ? 'default' : 'success'}
                  label={t(data.season.frozen ? 'competition.season.ended' : 'competition.season.running')}
                />
              </Box>
            </Box>
          </Paper>
          <Typography variant="h2" sx={{ mb: 1.5 }}>
            {t('competition.season.prizes')}
          </Typography>
          {data.prizes.length === 0 ? (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {t('competition.season.noPrizes')}
            </Typography>
          ) : (
            <Box sx={{ display: 'flex', gap: 2, overflowX: 'auto', pb: 1, mb: 3 }}>
              {data.prizes.map((p) => (
                <Paper
                  key={p._id}
                  sx={{
                    p: 1.5,
                    minWidth: 140,
                    textAlign: 'center',
                    borderTop: `3px solid ${RARITY_COLORS[p.rarity]}`,
                  }}
                >
                  <DropArt image={p.image} rarity={p.rarity} size={56} />
                  <Typography sx={{ fontWeight: 700, fontSize: '0.9rem' }}>{p.name}</Typography>
                  <Typography variant="caption" sx={{ color: RARITY_COLORS[p.rarity] }}>
                    {t(`competition.rarity.${p.rarity}`)}
                  </Typography>
                </Paper>
              ))}
            </Box>
          )}
          <Typography variant="h2" sx={{ mb: 1.5 }}>
            {t('competition.season.standings')}
          </Typography>
          {data.standings.length === 0 ? (
            <Typography color="text.secondary">{t('competition.season.noStandings')}</Typography>
          ) : (
            <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
              <Table size="small" sx={compactTableSx}>
                <TableHead>
                  <TableRow>
                    <TableCell>#</TableCell>
                    <TableCell>{t('competition.leaderboard.columns.name')}</TableCell>
                    <TableCell align="right">{t('competition.season.eloGained')}</TableCell>
                    <TableCell align="right">{t('competition.stats.matches')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.standings.map((s) => (
                    <TableRow key={s._id} selected={s._id === me}>
                      <TableCell>{s.position}</TableCell>
                      <TableCell>
                        <TableUserLink
                          user={s}
                          to={`/user/${s._id}/stats`}
                          avatarSize={28}
                          hideAvatarOnPhone
                          nameSx={{ maxWidth: { xs: 110, sm: 280 } }}
                        />
                      </TableCell>
                      <TableCell
                        align="right"
                        sx={{ color: s.eloGained >= 0 ? 'success.main' : 'error.main', fontWeight: 700 }}
                      >
                        {s.eloGained > 0 ? `+${s.eloGained}` : s.eloGained}
                      </TableCell>
                      <TableCell align="right">{s.matches}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </ScreenPage>
  );
}
