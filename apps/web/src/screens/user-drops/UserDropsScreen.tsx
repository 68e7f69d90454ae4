import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { CompetitionStats, DropsPage } from '@openpug/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { ScreenProps } from '../../app/screenModules';
import { api } from '../../features/api/client';
import { dayjs } from '../../features/dates';
import { DropArt, RARITY_COLORS } from '../../features/drops/art';
import { EloChart } from '../../features/ranking/EloChart';
import { updateSessionUser, useSession } from '../../features/session';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's drops (/user/:userId/drops) or stats (/user/:userId/stats), chosen by `content`. */
export function UserDropsScreen({ content }: ScreenProps) {
  return content === 'stats' ? <UserStats /> : <UserDrops />;
}

function UserDrops() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const me = useSession((s) => s.user);
  const own = me?._id === userId;
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['drops', 'user', userId],
    queryFn: ({ signal }) => api.get<DropsPage>(`/users/${userId}/drops`, { query: { limit: 100 }, signal }),
  });
  const unseen = own ? (me?.unseenDropsCount ?? 0) : 0;
  // Opening your own drops marks them seen: the sidebar badge clears.
  useEffect(() => {
    if (!own || !unseen) return;
    api
      .post('/profile/markDropsAsSeen', undefined, { silent: true })
      .then(() => {
        updateSessionUser({ unseenDropsCount: 0 });
        client.invalidateQueries({ queryKey: ['drops', 'user', userId] });
      })
      .catch(() => {});
  }, [own, unseen, userId, client]);
  const docs = query.data?.docs ?? [];
  return (
    <ScreenSection title={t('screens.userDrops.title')}>
      {query.isSuccess && docs.length === 0 && (
        <Typography color="text.secondary">{t('competition.drops.empty')}</Typography>
      )}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(auto-fill, minmax(170px, 1fr))' },
          gap: 2,
        }}
      >
        {docs.map((d) => (
          <Paper
            key={d._id}
            data-testid="drop-card"
            sx={{
              p: 2,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 1,
              textAlign: 'center',
              borderTop: `3px solid ${RARITY_COLORS[d.rarity]}`,
            }}
          >
            <DropArt image={d.image} rarity={d.rarity} size={72} />
            <Typography sx={{ fontWeight: 700 }}>{d.name}</Typography>
            <Typography
              variant="caption"
              sx={{ color: RARITY_COLORS[d.rarity], textTransform: 'uppercase', letterSpacing: 1 }}
            >
              {t(`competition.rarity.${d.rarity}`)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {dayjs(d.createdAt).format('D MMM YYYY')}
            </Typography>
            {(d.unlocksBanner || d.unlocksSound) && (
              <Typography variant="caption" color="text.secondary">
                {d.unlocksBanner
                  ? t('competition.drops.unlocksBanner', { banner: d.unlocksBanner })
                  : t('competition.drops.unlocksSound', { sound: d.unlocksSound })}
              </Typography>
            )}
            {d.redeemed !== undefined && (
              <Chip
                size="small"
                color={d.redeemed ? 'success' : 'default'}
                label={t(d.redeemed ? 'competition.drops.redeemed' : 'competition.drops.notRedeemed')}
              />
            )}
          </Paper>
        ))}
      </Box>
    </ScreenSection>
  );
}

function Tile({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper sx={{ p: 2, textAlign: 'center' }}>
      <Typography sx={{ fontSize: '1.5rem', fontWeight: 800 }}>{value}</Typography>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
    </Paper>
  );
}

function UserStats() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const query = useQuery({
    queryKey: ['users', 'stats', userId],
    queryFn: ({ signal }) => api.get<CompetitionStats>(`/users/${userId}/stats`, { signal }),
  });
  const s = query.data;
  return (
    <ScreenSection title={t('user.tabs.stats')}>
      {s && (
        <>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)', md: 'repeat(6, 1fr)' },
              gap: 2,
              mb: 3,
            }}
          >
            <Tile label={t('competition.stats.elo')} value={s.elo} />
            <Tile label={t('competition.stats.matches')} value={s.matches} />
            <Tile label={t('competition.stats.winRate')} value={`${Math.round(s.winRate * 100)}%`} />
            <Tile label={t('competition.stats.kd')} value={s.kd.toFixed(2)} />
            <Tile label={t('competition.stats.adr')} value={s.adr.toFixed(1)} />
            <Tile label={t('competition.stats.hs')} value={`${Math.round(s.hsRate * 100)}%`} />
          </Box>
          <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
            {t('competition.stats.eloOverTime')}
          </Typography>
          {s.eloHistory.length > 0 ? (
            <Paper sx={{ p: 2, mb: 3 }}>
              <EloChart points={s.eloHistory} label={t('competition.stats.eloOverTime')} />
            </Paper>
          ) : (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {t('competition.stats.noMatches')}
            </Typography>
          )}
          <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
            {t('competition.stats.lastFive')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1 }} data-testid="last-five">
            {s.lastResults.length === 0 && <Typography color="text.secondary">–</Typography>}
            {s.lastResults.map((r, i) => (
              <Chip
                // biome-ignore lint/suspicious/noArrayIndexKey: results have no id; order is fixed
                key={i}
                label={r === 'W' ? t('competition.stats.win') : t('competition.stats.loss')}
                color={r === 'W' ? 'success' : 'error'}
                size="small"
              />
            ))}
          </Box>
        </>
      )}
    </ScreenSection>
  );
}
