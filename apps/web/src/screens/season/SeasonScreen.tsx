import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type DropItem,
  type Locale,
  SEASON_TEXT_MAX,
  SEASON_TITLE_MAX,
  type Season,
  type SeasonStanding,
  type SeasonTexts,
} from '@openpug/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { dayjs } from '../../features/dates';
import { BannerArt, DropArt, RARITY_COLORS } from '../../features/drops/art';
import { useSession } from '../../features/session';
import { EditTextsDialog, type TextFieldSpec } from '../../ui/EditTextsDialog';
import { compactTableSx, TableUserLink } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

interface SeasonView {
  season: Season;
  standings: SeasonStanding[];
  prizes: DropItem[];
}

type SeasonDraft = SeasonTexts & { startsAt: string; endsAt: string };

/** Dates are edited as local calendar days. */
const toDay = (iso: string) => dayjs(iso).format('YYYY-MM-DD');

/**
 * /season1: dates, the admins' title, description and prizes text in the interface language (else
 * the season's name, and the drop catalogue alone as the prizes), standings (Elo gained inside the
 * season; frozen after the end). Admins edit the dates and the current language's texts here.
 */
export function SeasonScreen() {
  const { t, i18n } = useTranslation();
  const locale = (i18n.language === 'de' ? 'de' : 'en') as Locale;
  const me = useSession((s) => s.user?._id);
  const isAdmin = useSession((s) => s.user?.role === 'ADMIN');
  const [editing, setEditing] = useState(false);
  const client = useQueryClient();
  const queryKey = ['season', 'season1', locale];
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<SeasonView>('/seasons/season1', { query: { locale }, signal }),
  });
  const data = query.data;
  const fields: TextFieldSpec<keyof SeasonDraft>[] = [
    { name: 'startsAt', label: t('competition.season.fields.startsAt'), date: true },
    { name: 'endsAt', label: t('competition.season.fields.endsAt'), date: true },
    {
      name: 'title',
      label: t('competition.season.fields.title'),
      singleLine: true,
      maxLength: SEASON_TITLE_MAX,
    },
    { name: 'description', label: t('competition.season.fields.description'), maxLength: SEASON_TEXT_MAX },
    { name: 'prizes', label: t('competition.season.fields.prizes'), maxLength: SEASON_TEXT_MAX },
  ];
  const save = async ({ startsAt, endsAt, ...texts }: SeasonDraft) => {
    const season = await api.put<Season>('/seasons/season1', {
      locale,
      ...texts,
      startsAt: dayjs(startsAt).toISOString(),
      endsAt: dayjs(endsAt).toISOString(),
    });
    client.setQueryData<SeasonView>(queryKey, (view) => view && { ...view, season });
    // The dates move the standings' window, and other languages show the new dates too.
    client.invalidateQueries({ queryKey: ['season', 'season1'] });
  };
  const title = data?.season.texts.title || data?.season.name || '';
  const hasPrizes = Boolean(data && (data.season.texts.prizes || data.prizes.length > 0));
  return (
    <ScreenPage title={t('screens.season1.title')}>
      {data && isAdmin && (
        <Box sx={{ mb: 2 }}>
          <Button variant="outlined" onClick={() => setEditing(true)}>
            {t('competition.season.edit')}
          </Button>
        </Box>
      )}
      {editing && data && (
        <EditTextsDialog
          title={t('competition.season.editTitle', { language: t(`language.${locale}`) })}
          hint={t('competition.season.editHint')}
          fields={fields}
          initial={{
            ...data.season.texts,
            startsAt: toDay(data.season.startsAt),
            endsAt: toDay(data.season.endsAt),
          }}
          onSave={save}
          onClose={() => setEditing(false)}
        />
      )}
      {data && (
        <>
          <Paper sx={{ overflow: 'hidden', mb: 3, position: 'relative' }}>
            <BannerArt banner="aurora" height={120} label={title} />
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
              <Typography
                component="h2"
                sx={{
                  fontWeight: 800,
                  fontSize: { xs: '1.2rem', md: '1.6rem' },
                  color: '#fff',
                  overflowWrap: 'break-word',
                }}
              >
                {title}
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
          {data.season.texts.description && (
            <Typography
              sx={{ whiteSpace: 'pre-line', color: 'text.secondary', mb: 3 }}
              data-testid="season-description"
            >
              {data.season.texts.description}
            </Typography>
          )}
          {hasPrizes && (
            <Typography variant="h2" sx={{ mb: 1.5 }}>
              {t('competition.season.prizes')}
            </Typography>
          )}
          {data.season.texts.prizes && (
            <Typography
              sx={{ whiteSpace: 'pre-line', color: 'text.secondary', mb: 2 }}
              data-testid="season-prizes"
            >
              {data.season.texts.prizes}
            </Typography>
          )}
          {data.prizes.length > 0 && (
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
