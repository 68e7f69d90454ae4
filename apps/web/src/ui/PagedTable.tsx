/**
 * Pieces shared by the list tables (leaderboard, season standings, admin users, admin drops and
 * awards): page and page size state, the pagination bar (page-size picker hidden on phones), the
 * name filter, the player cell and the empty row.
 */
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UserAvatar } from './UserAvatar';

/** Standings tables on a phone: tighter cells that never wrap (rank, name, numbers stay on one line). */
export const compactTableSx = { '& td, & th': { px: { xs: 1, sm: 2 }, whiteSpace: 'nowrap' } } as const;

export interface Paging {
  /** Zero-based, as the pagination bar counts. */
  page: number;
  limit: number;
  setPage(page: number): void;
  setLimit(limit: number): void;
}

/** Page and page size; a new page size goes back to the first page. */
export function usePaging(initialLimit: number): Paging {
  const [page, setPage] = useState(0);
  const [limit, setLimitState] = useState(initialLimit);
  return {
    page,
    limit,
    setPage,
    setLimit(next) {
      setLimitState(next);
      setPage(0);
    },
  };
}

export function ListPagination({
  paging,
  count,
  sizes = [10, 25, 50, 100],
}: {
  paging: Paging;
  count: number;
  sizes?: number[];
}) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={count}
      page={paging.page}
      rowsPerPage={paging.limit}
      rowsPerPageOptions={sizes}
      onPageChange={(_e, p) => paging.setPage(p)}
      onRowsPerPageChange={(e) => paging.setLimit(Number(e.target.value))}
      labelRowsPerPage={t('competition.rowsPerPage')}
      labelDisplayedRows={({ from, to, count: total }) =>
        t('competition.rowsRange', { from, to, count: total })
      }
      sx={{
        '& .MuiTablePagination-toolbar': { px: 0 },
        '& .MuiTablePagination-selectLabel, & .MuiTablePagination-input': {
          display: { xs: 'none', sm: 'flex' },
        },
      }}
    />
  );
}

/** The row a table shows when the list is empty. */
export function EmptyTableRow({ colSpan, text }: { colSpan: number; text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan}>
        <Typography color="text.secondary">{text}</Typography>
      </TableCell>
    </TableRow>
  );
}

/** The name filter above a paged table; a new filter goes back to the first page. */
export function ListFilter({
  value,
  onChange,
  paging,
}: {
  value: string;
  onChange(value: string): void;
  paging: Paging;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      label={t('competition.leaderboard.filter')}
      value={value}
      onChange={(e) => {
        onChange(e.target.value);
        paging.setPage(0);
      }}
      sx={{ mb: 2, width: { xs: '100%', sm: 280 } }}
    />
  );
}

/**
 * A player's avatar and name in a table cell, linking to `to`. `hideAvatarOnPhone` leaves the
 * narrow phone columns to the name; `nameSx` sets the name's width (it is cut with an ellipsis).
 */
export function TableUserLink({
  user,
  to,
  avatarSize,
  hideAvatarOnPhone = false,
  nameSx,
}: {
  user: { _id: string; name: string | null; avatar: string | null };
  to: string;
  avatarSize: number;
  hideAvatarOnPhone?: boolean;
  nameSx: SxProps<Theme>;
}) {
  const { t } = useTranslation();
  const avatar = <UserAvatar user={user} size={avatarSize} />;
  return (
    <Box
      component={Link}
      to={to}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        color: 'inherit',
        textDecoration: 'none',
      }}
    >
      {hideAvatarOnPhone ? <Box sx={{ display: { xs: 'none', sm: 'block' } }}>{avatar}</Box> : avatar}
      <Typography component="span" noWrap sx={nameSx}>
        {user.name ?? t('competition.unnamed')}
      </Typography>
    </Box>
  );
}
