/**
 * The admin audit log (/admin/audit): every admin action, newest first, with filters (action,
 * actor, target, time range) and paging. A row opens to show the reason and the state before and
 * after; actor and target names set the filters. At 390 px the table keeps time, action and target.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type AuditEntry, type AuditPage, type AuditQueryInput, auditActions, isId } from '@openpug/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../features/api/client';
import { actionKey, formatDateTime } from '../../features/moderation/rules';
import { useSession } from '../../features/session';
import { EmptyTableRow, ListPagination, usePaging } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

interface Filters {
  action: string;
  actor: string;
  target: string;
  /** yyyy-mm-dd from the date fields, local time. */
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { action: '', actor: '', target: '', from: '', to: '' };

/** The date fields as epoch ms: from the start of `from` to the end of `to` (local days). */
function dayStart(day: string, plusDays = 0): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).getTime();
}

export function auditQuery(f: Filters, page: number, limit: number): AuditQueryInput {
  return {
    page: page + 1,
    limit,
    action: (f.action || undefined) as AuditQueryInput['action'],
    actor: isId(f.actor.trim()) ? f.actor.trim() : undefined,
    target: isId(f.target.trim()) ? f.target.trim() : undefined,
    from: dayStart(f.from),
    to: dayStart(f.to, 1),
  };
}

export function AdminAuditScreen() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'ADMIN';
  const paging = usePaging(25);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [open, setOpen] = useState<string | null>(null);
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    paging.setPage(0);
  };
  const query = auditQuery(filters, paging.page, paging.limit);
  const result = useQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: ({ signal }) =>
      api.get<AuditPage>('/admin/audit', { query: query as Record<string, string | number>, signal }),
    placeholderData: keepPreviousData,
    enabled: isAdmin,
  });
  if (!isAdmin)
    return (
      <ScreenPage title={t('screens.adminAudit.title')}>
        <Typography color="text.secondary">{t('competition.admin.onlyAdmins')}</Typography>
      </ScreenPage>
    );
  const idError = (v: string) => v.trim() !== '' && !isId(v.trim());
  const docs = result.data?.docs ?? [];
  return (
    <ScreenPage title={t('screens.adminAudit.title')}>
      <Box
        data-testid="audit-filters"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, minmax(0, 1fr)) auto' },
          gap: 1.5,
          mb: 2,
          alignItems: 'start',
        }}
      >
        <TextField
          select
          size="small"
          label={t('moderation.audit.action')}
          value={filters.action}
          onChange={(e) => set({ action: e.target.value })}
          sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
        >
          <MenuItem value="">{t('moderation.audit.all')}</MenuItem>
          {auditActions.map((a) => (
            <MenuItem key={a} value={a}>
              {t(actionKey(a))}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('moderation.audit.actor')}
          placeholder={t('moderation.audit.idPlaceholder')}
          value={filters.actor}
          error={idError(filters.actor)}
          onChange={(e) => set({ actor: e.target.value })}
        />
        <TextField
          size="small"
          label={t('moderation.audit.target')}
          placeholder={t('moderation.audit.idPlaceholder')}
          value={filters.target}
          error={idError(filters.target)}
          onChange={(e) => set({ target: e.target.value })}
        />
        <TextField
          size="small"
          type="date"
          label={t('moderation.audit.from')}
          value={filters.from}
          onChange={(e) => set({ from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('moderation.audit.to')}
          value={filters.to}
          onChange={(e) => set({ to: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button onClick={() => set(NO_FILTERS)} sx={{ alignSelf: 'center' }}>
          {t('moderation.audit.clear')}
        </Button>
      </Box>
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small" data-testid="audit-table" sx={{ '& td, & th': { px: { xs: 1, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('moderation.audit.time')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {t('moderation.audit.actor')}
              </TableCell>
              <TableCell>{t('moderation.audit.action')}</TableCell>
              <TableCell>{t('moderation.audit.target')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                {t('moderation.audit.reason')}
              </TableCell>
              <TableCell padding="checkbox" />
            </TableRow>
          </TableHead>
          <TableBody>
            {docs.length === 0 && !result.isPending && (
              <EmptyTableRow colSpan={6} text={t('moderation.audit.empty')} />
            )}
            {docs.map((e) => (
              <Fragment key={e._id}>
                <AuditRow
                  entry={e}
                  open={open === e._id}
                  onToggle={() => setOpen(open === e._id ? null : e._id)}
                  onFilter={set}
                />
                {open === e._id && (
                  <TableRow>
                    <TableCell colSpan={6} sx={{ bgcolor: 'action.hover' }}>
                      <AuditDetails entry={e} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination paging={paging} count={result.data?.totalDocs ?? 0} />
    </ScreenPage>
  );
}

function targetLabel(e: AuditEntry, t: (key: string) => string): string {
  if (e.targetType === 'user') return e.targetName ?? t('competition.unnamed');
  return `${t(`moderation.audit.targetTypes.${e.targetType}`)} ${e.targetId.slice(0, 8)}`;
}

const linkSx = {
  p: 0,
  minWidth: 0,
  textTransform: 'none',
  fontWeight: 600,
  justifyContent: 'flex-start',
  textAlign: 'left',
  overflowWrap: 'anywhere',
} as const;

function AuditRow({
  entry: e,
  open,
  onToggle,
  onFilter,
}: {
  entry: AuditEntry;
  open: boolean;
  onToggle(): void;
  onFilter(patch: Partial<Filters>): void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <TableRow data-testid="audit-row" hover sx={{ '& > td': { borderBottom: open ? 'none' : undefined } }}>
      <TableCell sx={{ whiteSpace: { sm: 'nowrap' }, fontVariantNumeric: 'tabular-nums' }}>
        {formatDateTime(e.createdAt, i18n.language)}
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
        <Button size="small" sx={linkSx} onClick={() => onFilter({ actor: e.actor._id })}>
          {e.actor.name ?? t('competition.unnamed')}
        </Button>
      </TableCell>
      <TableCell>{t(actionKey(e.action))}</TableCell>
      <TableCell>
        <Button
          size="small"
          sx={linkSx}
          title={t('moderation.audit.filterTarget')}
          onClick={() => onFilter({ target: e.targetId })}
        >
          {targetLabel(e, t)}
        </Button>
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, maxWidth: 260, overflowWrap: 'anywhere' }}>
        {e.reason ?? '–'}
      </TableCell>
      <TableCell padding="checkbox">
        <IconButton
          size="small"
          aria-expanded={open}
          aria-label={t(open ? 'moderation.audit.hide' : 'moderation.audit.show')}
          onClick={onToggle}
        >
          <Box
            component="span"
            aria-hidden
            sx={{ display: 'inline-block', transform: open ? 'rotate(180deg)' : 'none' }}
          >
            ▾
          </Box>
        </IconButton>
      </TableCell>
    </TableRow>
  );
}

function AuditDetails({ entry: e }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const pre = {
    m: 0,
    p: 1,
    borderRadius: 1,
    bgcolor: 'background.default',
    fontSize: 12,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  } as const;
  return (
    <Box
      data-testid="audit-details"
      sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
    >
      <Typography variant="body2" sx={{ gridColumn: '1 / -1' }}>
        <strong>{t('moderation.audit.actor')}:</strong> {e.actor.name ?? t('competition.unnamed')} ·{' '}
        <strong>{t('moderation.audit.reason')}:</strong> {e.reason ?? '–'}
        {e.targetType === 'user' && (
          <>
            {' · '}
            <Link to={`/user/${e.targetId}/matches`}>{t('moderation.audit.openUser')}</Link>
          </>
        )}
        {e.targetType === 'match' && (
          <>
            {' · '}
            <Link to={`/match/${e.targetId}`}>{t('moderation.audit.openMatch')}</Link>
          </>
        )}
      </Typography>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {t('moderation.audit.before')}
        </Typography>
        <Box component="pre" sx={pre}>
          {e.before == null ? '–' : JSON.stringify(e.before, null, 2)}
        </Box>
      </Box>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {t('moderation.audit.after')}
        </Typography>
        <Box component="pre" sx={pre}>
          {e.after == null ? '–' : JSON.stringify(e.after, null, 2)}
        </Box>
      </Box>
    </Box>
  );
}
