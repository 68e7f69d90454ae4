import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ROLES, type Role, type UsersPage } from '@openpug/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state';
import { SanctionsDialog, type SanctionTarget } from '../../features/moderation';
import { useSession } from '../../features/session';
import { ListFilter, ListPagination, TableUserLink, usePaging } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

/**
 * The admin users table (/admin/users): name, e-mail, role (changeable), verified, the ban/mute
 * dialog; paging and search.
 */
export function AdminScreen() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const client = useQueryClient();
  const paging = usePaging(25);
  const { page, limit } = paging;
  const [filter, setFilter] = useState('');
  const [sanctioning, setSanctioning] = useState<SanctionTarget | null>(null);
  const isAdmin = me?.role === 'ADMIN';
  const query = useQuery({
    queryKey: ['admin', 'users', page, limit, filter],
    queryFn: ({ signal }) =>
      api.get<UsersPage>('/users', {
        query: { page: page + 1, limit, filter: filter.trim() || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: isAdmin,
  });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => api.patch(`/users/${id}/role`, { role }),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      client.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
  });
  if (!isAdmin)
    return (
      <ScreenPage title={t('screens.admin.title')}>
        <Typography color="text.secondary">{t('competition.admin.onlyAdmins')}</Typography>
      </ScreenPage>
    );
  return (
    <ScreenPage title={t('screens.admin.title')}>
      <ListFilter value={filter} onChange={setFilter} paging={paging} />
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('competition.admin.users.name')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {t('competition.admin.users.email')}
              </TableCell>
              <TableCell>{t('competition.admin.users.role')}</TableCell>
              <TableCell>{t('competition.admin.users.verified')}</TableCell>
              <TableCell>{t('moderation.column')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(query.data?.docs ?? []).map((u) => (
              <TableRow key={u._id}>
                <TableCell>
                  <TableUserLink
                    user={u}
                    to={`/user/${u._id}/matches`}
                    avatarSize={28}
                    nameSx={{ maxWidth: { xs: 110, sm: 240 } }}
                  />
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{u.email ?? '–'}</TableCell>
                <TableCell>
                  <Select
                    size="small"
                    variant="standard"
                    disableUnderline
                    value={u.role ?? 'USER'}
                    onChange={(e) => changeRole.mutate({ id: u._id, role: e.target.value as Role })}
                    inputProps={{ 'aria-label': t('competition.admin.users.role') }}
                  >
                    {ROLES.map((r) => (
                      <MenuItem key={r} value={r}>
                        {t(`competition.admin.roles.${r}`)}
                      </MenuItem>
                    ))}
                  </Select>
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={u.verified ? 'success' : 'default'}
                    label={t(u.verified ? 'competition.admin.users.yes' : 'competition.admin.users.no')}
                  />
                </TableCell>
                <TableCell>
                  {u._id !== me?._id && (
                    <Button
                      size="small"
                      color="warning"
                      data-testid="open-sanctions"
                      sx={{ whiteSpace: 'nowrap' }}
                      onClick={() => setSanctioning({ _id: u._id, name: u.name })}
                    >
                      {t('moderation.open')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination paging={paging} count={query.data?.totalDocs ?? 0} />
      <SanctionsDialog user={sanctioning} onClose={() => setSanctioning(null)} />
    </ScreenPage>
  );
}
