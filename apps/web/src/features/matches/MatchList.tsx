/**
 * Match lists: the landing's live and recent matches (GET /api/match) and a player's matches
 * (GET /api/match/user/:userId/). Rows link to the match room.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { LIVE_MATCH_STATUSES, type MatchSummary, type Paged, type UserMatch } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api';
import { dayjs } from '../dates';
import { MapArt } from './MapArt';

const TEAM_ONE = '#4da3ff';
const TEAM_TWO = '#ff7a59';

function MatchRow({ match, player }: { match: MatchSummary; player?: UserMatch['player'] }) {
  const { t } = useTranslation();
  const live = (LIVE_MATCH_STATUSES as readonly string[]).includes(match.status);
  const change =
    player && player.eloAfter !== null && player.eloBefore !== null
      ? player.eloAfter - player.eloBefore
      : null;
  return (
    <Box
      component={Link}
      to={`/match/${match._id}`}
      data-testid="match-row"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '64px minmax(0,1fr) auto', sm: '96px minmax(0,1fr) auto auto' },
        alignItems: 'center',
        gap: { xs: 1.25, sm: 2 },
        p: 1,
        pr: 2,
        borderRadius: 2,
        color: 'inherit',
        textDecoration: 'none',
        border: '1px solid',
        borderColor: live ? 'rgba(46,204,113,0.5)' : 'divider',
        bgcolor: 'rgba(255,255,255,0.02)',
        transition: 'background 120ms',
        '&:hover': { bgcolor: 'rgba(255,255,255,0.06)' },
      }}
    >
      <Box sx={{ borderRadius: 1, overflow: 'hidden' }}>
        {match.map ? (
          <MapArt mapKey={match.map.key} name={match.map.name} showName={false} />
        ) : (
          <MapArt mapKey="none" name="" showName={false} />
        )}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography noWrap sx={{ fontWeight: 700 }}>
          <Box component="span" sx={{ color: TEAM_ONE }}>
            {match.teamOne.name}
          </Box>{' '}
          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
            vs
          </Box>{' '}
          <Box component="span" sx={{ color: TEAM_TWO }}>
            {match.teamTwo.name}
          </Box>
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap component="div">
          {match.map?.name ?? t(`match.status.${match.status}`)} ·{' '}
          {dayjs(match.finishedAt ?? match.createdAt).fromNow()}
        </Typography>
      </Box>
      <Box sx={{ textAlign: 'right' }}>
        <Typography sx={{ fontWeight: 900, fontVariantNumeric: 'tabular-nums', fontSize: '1.1rem' }}>
          {match.score.teamOne} : {match.score.teamTwo}
        </Typography>
        {player && player.victory !== null && (
          <Typography
            variant="caption"
            sx={{ fontWeight: 800, color: player.victory ? 'success.main' : 'error.main' }}
          >
            {player.victory ? t('match.list.win') : t('match.list.loss')}
            {change !== null ? ` ${change > 0 ? '+' : ''}${change}` : ''}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
        {live ? (
          <Chip size="small" color="success" label={t('match.list.live')} sx={{ fontWeight: 800 }} />
        ) : (
          <Chip size="small" variant="outlined" label={t(`match.status.${match.status}`)} />
        )}
      </Box>
    </Box>
  );
}

function Rows({
  rows,
  loading,
  empty,
}: {
  rows: { match: MatchSummary; player?: UserMatch['player'] }[];
  loading: boolean;
  empty: string;
}) {
  if (loading)
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={56} />
        ))}
      </Box>
    );
  if (rows.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {rows.map((r) => (
        <MatchRow key={r.match._id} match={r.match} player={r.player} />
      ))}
    </Box>
  );
}

const PAGE = 10;

/** Landing: live matches, then the recent finished ones. */
export function PublicMatches() {
  const { t } = useTranslation();
  const [limit, setLimit] = useState(PAGE);
  const live = useQuery({
    queryKey: ['matches', 'live'],
    queryFn: () =>
      api.get<Paged<MatchSummary>>('/match', { query: { status: 'live', limit: 20 }, silent: true }),
    refetchInterval: 15_000,
  });
  const recent = useQuery({
    queryKey: ['matches', 'finished', limit],
    queryFn: () =>
      api.get<Paged<MatchSummary>>('/match', { query: { status: 'finished', limit }, silent: true }),
    refetchInterval: 30_000,
  });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="public-matches">
      <Box>
        <Typography
          variant="h3"
          sx={{
            fontSize: '1.05rem',
            fontWeight: 800,
            mb: 1.25,
            display: 'flex',
            gap: 1,
            alignItems: 'center',
          }}
        >
          <Box
            component="span"
            sx={{
              width: 8,
              height: 8,
              borderRadius: '50%',
              bgcolor: 'success.main',
              boxShadow: '0 0 8px #2ecc71',
            }}
          />
          {t('match.list.liveTitle')}
        </Typography>
        <Rows
          loading={live.isPending}
          rows={(live.data?.docs ?? []).map((match) => ({ match }))}
          empty={t('match.list.noLive')}
        />
      </Box>
      <Box>
        <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 800, mb: 1.25 }}>
          {t('match.list.recentTitle')}
        </Typography>
        <Rows
          loading={recent.isPending}
          rows={(recent.data?.docs ?? []).map((match) => ({ match }))}
          empty={t('match.list.noRecent')}
        />
        {(recent.data?.totalDocs ?? 0) > limit && (
          <Button sx={{ mt: 1 }} onClick={() => setLimit((l) => l + PAGE)}>
            {t('match.list.more')}
          </Button>
        )}
      </Box>
    </Box>
  );
}

/** A player's matches, newest first, with their result and Elo change. */
export function UserMatchList({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const [limit, setLimit] = useState(PAGE);
  const query = useQuery({
    queryKey: ['matches', 'user', userId, limit],
    queryFn: () =>
      api.get<Paged<UserMatch>>(`/match/user/${encodeURIComponent(userId)}/`, {
        query: { limit },
        silent: true,
      }),
  });
  return (
    <Box data-testid="user-matches">
      <Rows
        loading={query.isPending}
        rows={(query.data?.docs ?? []).map(({ player, ...match }) => ({ match, player }))}
        empty={t('friends.page.empty.matches')}
      />
      {(query.data?.totalDocs ?? 0) > limit && (
        <Button sx={{ mt: 1 }} onClick={() => setLimit((l) => l + PAGE)}>
          {t('match.list.more')}
        </Button>
      )}
    </Box>
  );
}
