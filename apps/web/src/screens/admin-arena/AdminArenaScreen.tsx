/**
 * Admin: the arena servers (/admin/arena, docs/contract.md §3 "In Arena"). Each row shows the
 * name, where players connect, where RCON answers and what the last poll found; admins add,
 * change (the RCON password only when a new one is typed) and delete servers. At 390 px the table
 * keeps name, players and the actions.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type AdminArenaList,
  type AdminArenaServer,
  arenaServerCreateSchema,
  arenaServerUpdateSchema,
} from '@openpug/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state';
import { useSession } from '../../features/session';
import { EmptyTableRow } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

interface Form {
  name: string;
  address: string;
  rconAddress: string;
  rconPassword: string;
}
const EMPTY: Form = { name: '', address: '', rconAddress: '', rconPassword: '' };
type Field = keyof Form;

/** The dialog to add a server (`editing` null) or change one. */
function ServerDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: AdminArenaServer | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setForm(
      editing
        ? { name: editing.name, address: editing.address, rconAddress: editing.rconAddress, rconPassword: '' }
        : EMPTY,
    );
  }, [open, editing]);
  const save = useMutation({
    mutationFn: (body: unknown) =>
      editing
        ? api.patch(`/admin/arena/${editing._id}`, body)
        : api.post('/admin/arena', body, { expect: 201 }),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      void client.invalidateQueries({ queryKey: ['admin', 'arena'] });
      void client.invalidateQueries({ queryKey: ['arena'] });
      onClose();
    },
  });
  const submit = () => {
    // Changing a server: an empty password field keeps the stored one.
    const body = editing && form.rconPassword === '' ? { ...form, rconPassword: undefined } : form;
    const parsed = (editing ? arenaServerUpdateSchema : arenaServerCreateSchema).safeParse(body);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return;
    }
    save.mutate(parsed.data);
  };
  const field = (
    key: Field,
    label: string,
    extra: { type?: string; placeholder?: string; helper?: string } = {},
  ) => (
    <TextField
      key={key}
      size="small"
      label={label}
      type={extra.type}
      placeholder={extra.placeholder}
      value={form[key]}
      error={Boolean(errors[key])}
      helperText={errors[key] ? t(errors[key]) : (extra.helper ?? ' ')}
      onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      slotProps={{ htmlInput: { 'data-testid': `arena-field-${key}` } }}
      autoComplete="off"
      fullWidth
    />
  );
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{editing ? t('arena.admin.edit') : t('arena.admin.add')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          {field('name', t('arena.admin.name'), { placeholder: 'Deathmatch EU' })}
          {field('address', t('arena.admin.address'), {
            placeholder: 'dm.example.org:27015',
            helper: t('arena.admin.addressHint'),
          })}
          {field('rconAddress', t('arena.admin.rconAddress'), {
            placeholder: '10.0.0.5:27015',
            helper: t('arena.admin.rconAddressHint'),
          })}
          {field('rconPassword', t('arena.admin.rconPassword'), {
            type: 'password',
            helper: editing ? t('arena.admin.passwordKeep') : ' ',
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('competition.admin.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="arena-save">
          {t('competition.admin.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function AdminArenaScreen() {
  const { t, i18n } = useTranslation();
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'ADMIN';
  const client = useQueryClient();
  const [dialog, setDialog] = useState<{ editing: AdminArenaServer | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminArenaServer | null>(null);
  const result = useQuery({
    queryKey: ['admin', 'arena'],
    queryFn: ({ signal }) => api.get<AdminArenaList>('/admin/arena', { signal }),
    refetchInterval: 15_000,
    enabled: isAdmin,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/admin/arena/${id}`),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.DELETED_SUCCESSFULLY' });
      void client.invalidateQueries({ queryKey: ['admin', 'arena'] });
      void client.invalidateQueries({ queryKey: ['arena'] });
      setDeleting(null);
    },
  });
  if (!isAdmin)
    return (
      <ScreenPage title={t('screens.adminArena.title')}>
        <Typography color="text.secondary">{t('competition.admin.onlyAdmins')}</Typography>
      </ScreenPage>
    );
  const servers = result.data?.servers ?? [];
  const wide = { display: { xs: 'none', md: 'table-cell' } };
  const polled = (s: AdminArenaServer) =>
    s.polledAt === null
      ? t('arena.admin.neverPolled')
      : new Date(s.polledAt).toLocaleTimeString(i18n.language, {
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        });
  return (
    <ScreenPage title={t('screens.adminArena.title')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          {t('arena.admin.intro')}
        </Typography>
        <Button variant="contained" onClick={() => setDialog({ editing: null })} data-testid="arena-add">
          {t('arena.admin.add')}
        </Button>
      </Stack>
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small" data-testid="arena-table" sx={{ '& td, & th': { px: { xs: 1, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('arena.admin.name')}</TableCell>
              <TableCell sx={wide}>{t('arena.admin.address')}</TableCell>
              <TableCell sx={wide}>{t('arena.admin.rconAddress')}</TableCell>
              <TableCell>{t('arena.admin.state')}</TableCell>
              <TableCell align="right" />
            </TableRow>
          </TableHead>
          <TableBody>
            {servers.length === 0 && !result.isLoading && (
              <EmptyTableRow colSpan={5} text={t('arena.admin.empty')} />
            )}
            {servers.map((s) => (
              <TableRow key={s._id} data-testid="arena-admin-row">
                <TableCell sx={{ fontWeight: 700, overflowWrap: 'break-word' }}>
                  {s.name}
                  <Box
                    sx={{ display: { md: 'none' }, color: 'text.secondary', fontWeight: 400, fontSize: 13 }}
                  >
                    {s.address}
                  </Box>
                </TableCell>
                <TableCell sx={wide}>{s.address}</TableCell>
                <TableCell sx={wide}>{s.rconAddress}</TableCell>
                <TableCell>
                  <Box sx={{ color: s.online ? 'success.main' : 'text.secondary', whiteSpace: 'nowrap' }}>
                    {s.online ? t('arena.players', { count: s.players }) : t('arena.offline')}
                  </Box>
                  <Box sx={{ color: 'text.secondary', fontSize: 12, whiteSpace: 'nowrap' }}>
                    {t('arena.admin.polled', { time: polled(s) })}
                  </Box>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {/* Stacked at 390 px so the name keeps its width. */}
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    sx={{ alignItems: 'flex-end', justifyContent: 'flex-end' }}
                  >
                    <Button size="small" onClick={() => setDialog({ editing: s })}>
                      {t('arena.admin.editShort')}
                    </Button>
                    <Button size="small" color="error" onClick={() => setDeleting(s)}>
                      {t('arena.admin.delete')}
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
      />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('arena.admin.deleteTitle')}</DialogTitle>
        <DialogContent>
          <Typography>{t('arena.admin.deleteText', { name: deleting?.name ?? '' })}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t('competition.admin.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            disabled={remove.isPending}
            onClick={() => deleting && remove.mutate(deleting._id)}
          >
            {t('arena.admin.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </ScreenPage>
  );
}
