import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Highlight } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../features/api/client';
import { dayjs } from '../../features/dates';
import { ScreenSection } from '../../ui/ScreenSection';

const KIND_COLOR = { ace: '#ffb300', '4k': '#42a5f5', clutch: '#ab47bc' } as const;

/** /user/:userId/highlights: aces, 4k rounds and clutches, each linking to its match. */
export function UserHighlightsScreen() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const query = useQuery({
    queryKey: ['users', 'highlights', userId],
    queryFn: ({ signal }) => api.get<{ docs: Highlight[] }>(`/users/${userId}/highlights`, { signal }),
  });
  const docs = query.data?.docs ?? [];
  return (
    <ScreenSection title={t('screens.userHighlights.title')}>
      {query.isSuccess && docs.length === 0 && (
        <Typography color="text.secondary">{t('competition.highlights.empty')}</Typography>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {docs.map((h) => (
          <Paper
            key={`${h.matchId}-${h.round}-${h.kind}`}
            component={Link}
            to={`/match/${h.matchId}`}
            data-testid="highlight"
            sx={{
              p: 2,
              display: 'flex',
              alignItems: 'center',
              gap: 2,
              flexWrap: 'wrap',
              textDecoration: 'none',
              color: 'inherit',
              borderLeft: `4px solid ${KIND_COLOR[h.kind]}`,
              '&:hover': { bgcolor: 'action.hover' },
            }}
          >
            <Chip
              label={t(`competition.highlights.kind.${h.kind}`)}
              sx={{ bgcolor: KIND_COLOR[h.kind], color: '#111', fontWeight: 800 }}
            />
            <Box sx={{ flex: 1, minWidth: 160 }}>
              <Typography sx={{ fontWeight: 700 }}>
                {h.kind === 'clutch'
                  ? t('competition.highlights.clutch', { n: h.versus ?? 1, kills: h.kills })
                  : t('competition.highlights.kills', { kills: h.kills, headshots: h.headshots })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('competition.highlights.where', { map: h.mapName ?? '?', round: h.round })} ·{' '}
                {dayjs(h.at).format('D MMM YYYY')}
              </Typography>
            </Box>
            <Typography variant="body2" color="primary">
              {t('competition.highlights.open')} →
            </Typography>
          </Paper>
        ))}
      </Box>
    </ScreenSection>
  );
}
