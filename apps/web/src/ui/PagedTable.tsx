/**
 * Paging shared by every list table (leaderboard, admin users, admin drops and awards): page and
 * page size state, the pagination bar (page-size picker hidden on phones) and the empty row.
 */
import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

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
