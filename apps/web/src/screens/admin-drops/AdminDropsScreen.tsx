import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  BANNERS,
  type CreateDropInput,
  createDropSchema,
  DEFAULT_BANNER,
  DEFAULT_SOUND,
  DROP_IMAGES,
  type DropEngineState,
  type DropItemsPage,
  type DropsPage,
  dropEngineSettingsSchema,
  MAX_DROP_AMOUNT,
  RARITIES,
  SOUNDS,
} from '@openpug/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type FieldMessage, schemaFieldMessages } from '../../features/accounts/formRules';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state';
import { dayjs } from '../../features/dates';
import { DropArt, RARITY_COLORS } from '../../features/drops/art';
import { useSession } from '../../features/session';
import { EmptyTableRow, ListPagination, usePaging } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';

/** /admin/drops: the catalogue (create, delete), the awarded drops (redeemed) and the engine. */
export function AdminDropsScreen() {
  const { t } = useTranslation();
  const role = useSession((s) => s.user?.role);
  if (role !== 'ADMIN')
    return (
      <ScreenPage title={t('screens.adminDrops.title')}>
        <Typography color="text.secondary">{t('competition.admin.onlyAdmins')}</Typography>
      </ScreenPage>
    );
  return (
    <ScreenPage title={t('screens.adminDrops.title')}>
      <EngineSettings />
      <Catalogue />
      <Awards />
    </ScreenPage>
  );
}

function EngineSettings() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['drops', 'engine'],
    queryFn: ({ signal }) => api.get<DropEngineState>('/drops/engine', { signal }),
  });
  const [minutes, setMinutes] = useState('');
  useEffect(() => {
    if (query.data) setMinutes(String(query.data.intervalMs / 60_000));
  }, [query.data]);
  const save = useMutation({
    mutationFn: (body: { enabled: boolean; intervalMs: number }) =>
      api.put<DropEngineState>('/drops/engine', body),
    onSuccess: (data) => {
      client.setQueryData(['drops', 'engine'], data);
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
    },
  });
  const state = query.data;
  if (!state) return null;
  const intervalMs = Math.round(Number(minutes) * 60_000);
  const valid =
    minutes.trim() !== '' && dropEngineSettingsSchema.safeParse({ enabled: true, intervalMs }).success;
  return (
    <Paper sx={{ p: 2, mb: 3, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
      <Typography sx={{ fontWeight: 700, mr: 1 }}>{t('competition.admin.engine')}</Typography>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Switch
          checked={state.enabled}
          onChange={(e) => save.mutate({ enabled: e.target.checked, intervalMs: state.intervalMs })}
          slotProps={{ input: { 'aria-label': t('competition.admin.engineOn') } }}
        />
        <Typography>{t(state.enabled ? 'competition.admin.on' : 'competition.admin.off')}</Typography>
      </Box>
      <TextField
        size="small"
        type="number"
        label={t('competition.admin.intervalMinutes')}
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
        error={!valid}
        helperText={valid ? undefined : t('competition.admin.invalid.interval')}
        sx={{ width: 170 }}
        slotProps={{ htmlInput: { min: 0.1, step: 1 } }}
      />
      <Button
        variant="outlined"
        disabled={!valid}
        onClick={() => save.mutate({ enabled: state.enabled, intervalMs })}
      >
        {t('competition.admin.save')}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {t('competition.admin.nextChance', { chance: Math.round(state.nextChance * 100) })}
        {state.nextRollAt &&
          ` · ${t('competition.admin.nextRoll', { time: dayjs(state.nextRollAt).format('H:mm:ss') })}`}
      </Typography>
    </Paper>
  );
}

const emptyDrop: CreateDropInput = {
  name: '',
  image: 'crate',
  rarity: 'common',
  amount: 1,
  unlocksBanner: null,
  unlocksSound: null,
};

/**
 * Each field's own text for a refused value; the server's keys (IS_EMPTY, INVALID_INPUT) say
 * nothing about which field or why. The unlock is one select for two fields.
 */
const DROP_FIELD_MESSAGES: Record<string, FieldMessage> = {
  name: { key: 'competition.admin.invalid.name' },
  image: { key: 'competition.admin.invalid.choose' },
  rarity: { key: 'competition.admin.invalid.choose' },
  amount: { key: 'competition.admin.invalid.amount', params: { max: MAX_DROP_AMOUNT } },
  unlocksBanner: { key: 'competition.admin.invalid.choose' },
  unlocksSound: { key: 'competition.admin.invalid.choose' },
};

type DropErrors = Partial<Record<keyof CreateDropInput, FieldMessage>>;

function CreateDropDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [form, setForm] = useState<CreateDropInput>(emptyDrop);
  const [errors, setErrors] = useState<DropErrors>({});
  useEffect(() => {
    if (open) {
      setForm(emptyDrop);
      setErrors({});
    }
  }, [open]);
  const number = new Intl.NumberFormat(i18n.language);
  // A field's helper text: its message, or a blank line that keeps the layout still.
  const helper = (...fields: (keyof CreateDropInput)[]) => {
    const message = fields.map((f) => errors[f]).find(Boolean);
    if (!message) return { error: false, helperText: ' ' };
    const params =
      typeof message.params?.max === 'number'
        ? { ...message.params, max: number.format(message.params.max) }
        : message.params;
    return { error: true, helperText: t(message.key, params) };
  };
  const create = useMutation({
    mutationFn: (body: unknown) => api.post('/drops/', body, { expect: 201 }),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      client.invalidateQueries({ queryKey: ['drops'] });
      onClose();
    },
  });
  const submit = () => {
    const found: DropErrors = schemaFieldMessages(createDropSchema, form, DROP_FIELD_MESSAGES);
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate(createDropSchema.parse(form));
  };
  const set = (patch: Partial<CreateDropInput>) => setForm((f) => ({ ...f, ...patch }));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('competition.admin.create')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <DropArt image={form.image} rarity={form.rarity} size={72} />
        </Box>
        <TextField
          label={t('competition.admin.fields.name')}
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          {...helper('name')}
          autoFocus
          slotProps={{ htmlInput: { 'data-testid': 'drop-name' } }}
        />
        <TextField
          select
          label={t('competition.admin.fields.image')}
          value={form.image}
          onChange={(e) => set({ image: e.target.value })}
          {...helper('image')}
        >
          {DROP_IMAGES.map((i) => (
            <MenuItem key={i} value={i}>
              {t(`competition.images.${i}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('competition.admin.fields.rarity')}
          value={form.rarity}
          onChange={(e) => set({ rarity: e.target.value as CreateDropInput['rarity'] })}
          {...helper('rarity')}
        >
          {RARITIES.map((r) => (
            <MenuItem key={r} value={r} sx={{ color: RARITY_COLORS[r] }}>
              {t(`competition.rarity.${r}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="number"
          label={t('competition.admin.fields.amount')}
          value={String(form.amount)}
          onChange={(e) => set({ amount: e.target.value === '' ? 0 : Number(e.target.value) })}
          {...helper('amount')}
          slotProps={{ htmlInput: { min: 1, max: MAX_DROP_AMOUNT, step: 1 } }}
        />
        <TextField
          select
          label={t('competition.admin.fields.unlocks')}
          value={
            form.unlocksBanner
              ? `banner:${form.unlocksBanner}`
              : form.unlocksSound
                ? `sound:${form.unlocksSound}`
                : ''
          }
          onChange={(e) => {
            const [kind, value] = e.target.value.split(':');
            set({
              unlocksBanner: kind === 'banner' ? (value as CreateDropInput['unlocksBanner']) : null,
              unlocksSound: kind === 'sound' ? (value as CreateDropInput['unlocksSound']) : null,
            });
          }}
          {...helper('unlocksBanner', 'unlocksSound')}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t('competition.admin.nothing')}</MenuItem>
          {BANNERS.filter((b) => b !== DEFAULT_BANNER).map((b) => (
            <MenuItem key={b} value={`banner:${b}`}>
              {t('competition.drops.unlocksBanner', { banner: b })}
            </MenuItem>
          ))}
          {SOUNDS.filter((s) => s !== DEFAULT_SOUND).map((s) => (
            <MenuItem key={s} value={`sound:${s}`}>
              {t('competition.drops.unlocksSound', { sound: s })}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('competition.admin.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={create.isPending}>
          {t('competition.admin.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Catalogue() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const paging = usePaging(10);
  const { page, limit } = paging;
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ['drops', 'catalogue', page, limit],
    queryFn: ({ signal }) => api.get<DropItemsPage>('/drops', { query: { page: page + 1, limit }, signal }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/drops/${id}`),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.DELETED_SUCCESSFULLY' });
      client.invalidateQueries({ queryKey: ['drops'] });
      setDeleting(null);
    },
  });
  return (
    <Box sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5, gap: 2 }}>
        <Typography variant="h2">{t('competition.admin.catalogue')}</Typography>
        <Button variant="contained" onClick={() => setCreating(true)}>
          {t('competition.admin.create')}
        </Button>
      </Box>
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('competition.admin.fields.name')}</TableCell>
              <TableCell>{t('competition.admin.fields.rarity')}</TableCell>
              <TableCell align="right">{t('competition.admin.fields.awarded')}</TableCell>
              <TableCell align="right" />
            </TableRow>
          </TableHead>
          <TableBody>
            {(query.data?.docs ?? []).map((d) => (
              <TableRow key={d._id} data-testid="catalogue-row">
                <TableCell>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                    <DropArt image={d.image} rarity={d.rarity} size={36} />
                    <span>{d.name}</span>
                  </Box>
                </TableCell>
                <TableCell sx={{ color: RARITY_COLORS[d.rarity] }}>
                  {t(`competition.rarity.${d.rarity}`)}
                </TableCell>
                <TableCell align="right">
                  {d.awarded} / {d.amount}
                </TableCell>
                <TableCell align="right">
                  <IconButton
                    aria-label={t('competition.admin.delete')}
                    onClick={() => setDeleting(d._id)}
                    size="small"
                  >
                    <span aria-hidden="true">✕</span>
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
            {query.isSuccess && query.data.docs.length === 0 && (
              <EmptyTableRow colSpan={4} text={t('competition.admin.noDrops')} />
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination paging={paging} count={query.data?.totalDocs ?? 0} sizes={[10, 25, 50]} />
      <CreateDropDialog open={creating} onClose={() => setCreating(false)} />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)}>
        <DialogContent>
          <Typography>{t('competition.admin.confirmDelete')}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t('competition.admin.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => deleting && remove.mutate(deleting)}>
            {t('competition.admin.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function Awards() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const paging = usePaging(10);
  const { page, limit } = paging;
  const query = useQuery({
    queryKey: ['drops', 'awards', page, limit],
    queryFn: ({ signal }) =>
      api.get<DropsPage>('/drops/awards', { query: { page: page + 1, limit }, signal }),
    placeholderData: keepPreviousData,
  });
  const toggle = useMutation({
    mutationFn: ({ id, redeemed }: { id: string; redeemed: boolean }) =>
      api.patch(`/drops/${id}`, { redeemed }),
    onSuccess: () => {
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      client.invalidateQueries({ queryKey: ['drops', 'awards'] });
    },
  });
  return (
    <Box>
      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {t('competition.admin.awards')}
      </Typography>
      <TableContainer sx={{ bgcolor: 'background.paper', borderRadius: 2 }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('competition.admin.fields.name')}</TableCell>
              <TableCell>{t('competition.admin.fields.owner')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {t('competition.admin.fields.time')}
              </TableCell>
              <TableCell align="right">{t('competition.drops.redeemed')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(query.data?.docs ?? []).map((d) => (
              <TableRow key={d._id}>
                <TableCell>{d.name}</TableCell>
                <TableCell>
                  <Link to={`/user/${d.owner._id}/drops`} style={{ color: 'inherit' }}>
                    {d.owner.name ?? t('competition.unnamed')}
                  </Link>
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  {dayjs(d.createdAt).format('D MMM YYYY H:mm')}
                </TableCell>
                <TableCell align="right">
                  <Switch
                    checked={d.redeemed ?? false}
                    onChange={(e) => toggle.mutate({ id: d._id, redeemed: e.target.checked })}
                    slotProps={{ input: { 'aria-label': t('competition.drops.redeemed') } }}
                  />
                </TableCell>
              </TableRow>
            ))}
            {query.isSuccess && query.data.docs.length === 0 && (
              <EmptyTableRow colSpan={4} text={t('competition.admin.noAwards')} />
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination paging={paging} count={query.data?.totalDocs ?? 0} sizes={[10, 25, 50]} />
    </Box>
  );
}
