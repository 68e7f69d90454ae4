import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { RankingPage, RankingSortField } from '@openpug/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { useSession } from '../../features/session';
import {
  compactTableSx,
  EmptyTableRow,
  ListFilter,
  ListPagination,
  TableUserLink,
  usePaging,
} from '../../ui/PagedTable';

const COLUMNS: { key: RankingSortField; align?: 'right' }[] = [
  { key: 'rank' },
  { key: 'name' },
  { key: 'elo', align: 'right' },
  { key: 'wins', align: 'right' },
  { key: 'winRate', align: 'right' },
];

const pct = (v: number) => `${Math.round(v * 100)}%`;

/**
 * The leaderboard's body (MUI, the query cache; LeaderboardScreen mounts it after the title has
 * painted): every ranked player by Elo with paging, sorting and a name filter; the viewer's row
 * stands out. Players are ranked after the placement matches (docs/contract.md §3 Placement): the page
 * says how many, and tells a viewer who is still unranked.
 */
export function LeaderboardTable() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?._id);
  const myRank = useSession((s) => s.user?.rank);
  const [sort, setSort] = useState<RankingSortField>('rank');
  const [desc, setDesc] = useState(false);
  const paging = usePaging(25);
  const { page, limit, setPage } = paging;
  const [filter, setFilter] = useState('');
  const query = useQuery({
    queryKey: ['ranking', sort, desc, page, limit, filter],
    queryFn: ({ signal }) =>
      api.get<RankingPage>('/users/ranking', {
        query: { sort, order: desc ? -1 : 1, page: page + 1, limit, filter: filter.trim() || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const onSort = (key: RankingSortField) => {
    if (key === sort) setDesc(!desc);
    else {
      setSort(key);
      setDesc(key === 'elo' || key === 'wins' || key === 'winRate');
    }
    setPage(0);
  };
  const rows = query.data?.docs ?? [];
  return (
    <>
      {query.data && query.data.placementMatches > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }} data-testid="placement-note">
          {t('competition.leaderboard.placement', { count: query.data.placementMatches })}
        </Typography>
      )}
      {me && myRank === null && query.data && (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }} data-testid="leaderboard-unranked">
          {t('competition.leaderboard.youUnranked', { count: query.data.placementMatches })}
        </Alert>
      )}
      <ListFilter value={filter} onChange={setFilter} paging={paging} />
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small" aria-label={t('screens.leaderboard.title')} sx={compactTableSx}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell
                  key={c.key}
                  align={c.align}
                  sx={c.key === 'winRate' ? { display: { xs: 'none', sm: 'table-cell' } } : undefined}
                >
                  <TableSortLabel
                    active={sort === c.key}
                    direction={sort === c.key && desc ? 'desc' : 'asc'}
                    onClick={() => onSort(c.key)}
                  >
                    {t(`competition.leaderboard.columns.${c.key}`)}
                  </TableSortLabel>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => {
              const mine = r._id === me;
              return (
                <TableRow
                  key={r._id}
                  selected={mine}
                  data-testid={mine ? 'leaderboard-me' : undefined}
                  sx={
                    mine
                      ? { '& td': { fontWeight: 700 }, outline: '2px solid', outlineColor: 'primary.main' }
                      : undefined
                  }
                >
                  <TableCell sx={{ width: 48 }}>#{r.rank}</TableCell>
                  <TableCell>
                    <TableUserLink
                      user={r}
                      to={`/user/${r._id}/stats`}
                      avatarSize={32}
                      hideAvatarOnPhone
                      nameSx={{ maxWidth: { xs: 96, sm: 260 }, fontWeight: 'inherit' }}
                    />
                  </TableCell>
                  <TableCell align="right">{r.stats.elo}</TableCell>
                  <TableCell align="right">
                    <Box component="span" sx={{ color: 'success.main' }}>
                      {r.wins}
                    </Box>
                    {' / '}
                    <Box component="span" sx={{ color: 'error.main' }}>
                      {r.losses}
                    </Box>
                  </TableCell>
                  <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {pct(r.winRate)}
                  </TableCell>
                </TableRow>
              );
            })}
            {query.isSuccess && rows.length === 0 && (
              <EmptyTableRow colSpan={5} text={t('competition.leaderboard.empty')} />
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination paging={paging} count={query.data?.totalDocs ?? 0} />
    </>
  );
}
