/**
 * The admins' ban/mute dialog for one player: a form (ban or mute, duration in minutes, hours or
 * days, or permanently, and the reason the player is shown) and the player's sanctions, active
 * ones first, each active one with a Lift button that asks for a reason.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Sanction, SanctionKind, SanctionList } from '@openpug/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { DurationFields } from './DurationFields';
import { type DurationUnit, durationMinutes, formatDateTime } from './rules';

export interface SanctionTarget {
  _id: string;
  name: string | null;
}

const sanctionsKey = (userId: string) => ['admin', 'sanctions', userId];

export function SanctionsDialog({ user, onClose }: { user: SanctionTarget | null; onClose(): void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width:600px)');
  return (
    <Dialog open={user !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>
        {t('moderation.dialog.title', { name: user?.name ?? t('competition.unnamed') })}
      </DialogTitle>
      <DialogContent dividers>{user && <SanctionsPanel userId={user._id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('moderation.dialog.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function SanctionsPanel({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: sanctionsKey(userId),
    queryFn: ({ signal }) => api.get<SanctionList>(`/admin/users/${userId}/sanctions`, { signal }),
  });
  const docs = query.data?.docs ?? [];
  const active = docs.filter((s) => s.active);
  const past = docs.filter((s) => !s.active);
  return (
    <Stack spacing={3}>
      <SanctionForm userId={userId} />
      <section aria-labelledby="sanctions-active">
        <Typography id="sanctions-active" variant="subtitle2" sx={{ mb: 1 }}>
          {t('moderation.dialog.active')}
        </Typography>
        {active.length === 0 && <Typography color="text.secondary">{t('moderation.dialog.none')}</Typography>}
        <Stack spacing={1}>
          {active.map((s) => (
            <SanctionRow key={s._id} sanction={s} userId={userId} />
          ))}
        </Stack>
      </section>
      <section aria-labelledby="sanctions-past">
        <Typography id="sanctions-past" variant="subtitle2" sx={{ mb: 1 }}>
          {t('moderation.dialog.past')}
        </Typography>
        {past.length === 0 && <Typography color="text.secondary">{t('moderation.dialog.none')}</Typography>}
        <Stack spacing={1}>
          {past.map((s) => (
            <SanctionRow key={s._id} sanction={s} userId={userId} />
          ))}
        </Stack>
      </section>
    </Stack>
  );
}

function SanctionForm({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [kind, setKind] = useState<SanctionKind>('ban');
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<DurationUnit>('days');
  const [reason, setReason] = useState('');
  const minutes = durationMinutes(amount, unit);
  const valid = minutes !== null && reason.trim() !== '';
  const create = useMutation({
    mutationFn: () =>
      api.post(
        `/admin/users/${userId}/sanctions`,
        { kind, reason: reason.trim(), ...(minutes ? { minutes } : {}) },
        { expect: 201 },
      ),
    onSuccess: () => {
      setReason('');
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      void client.invalidateQueries({ queryKey: sanctionsKey(userId) });
      void client.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
  return (
    <Box
      component="form"
      data-testid="sanction-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) create.mutate();
      }}
    >
      <Stack spacing={2}>
        <ToggleButtonGroup
          exclusive
          size="small"
          color={kind === 'ban' ? 'error' : 'warning'}
          value={kind}
          onChange={(_e, v: SanctionKind | null) => v && setKind(v)}
          aria-label={t('moderation.dialog.kind')}
        >
          <ToggleButton value="ban">{t('moderation.kinds.ban')}</ToggleButton>
          <ToggleButton value="mute">{t('moderation.kinds.mute')}</ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="body2" color="text.secondary">
          {t(`moderation.dialog.explain.${kind}`)}
        </Typography>
        <DurationFields
          amount={amount}
          unit={unit}
          invalid={minutes === null}
          onAmount={setAmount}
          onUnit={setUnit}
        />
        <TextField
          size="small"
          multiline
          minRows={2}
          label={t('moderation.dialog.reason')}
          helperText={t('moderation.dialog.reasonHint')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            color={kind === 'ban' ? 'error' : 'warning'}
            disabled={!valid || create.isPending}
          >
            {t(`moderation.dialog.submit.${kind}`)}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function SanctionRow({ sanction: s, userId }: { sanction: Sanction; userId: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [lifting, setLifting] = useState(false);
  const [reason, setReason] = useState('');
  const date = (ms: number) => formatDateTime(ms, i18n.language);
  const lift = useMutation({
    mutationFn: () => api.post(`/admin/sanctions/${s._id}/lift`, { reason: reason.trim() }),
    onSuccess: () => {
      setLifting(false);
      setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
      void client.invalidateQueries({ queryKey: sanctionsKey(userId) });
      void client.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
  });
  const status = s.liftedAt
    ? t('moderation.dialog.lifted', {
        date: date(s.liftedAt),
        name: s.liftedBy?.name ?? '–',
        reason: s.liftReason ?? '',
      })
    : s.active
      ? s.endsAt === null
        ? t('moderation.dialog.permanent')
        : t('moderation.dialog.until', { date: date(s.endsAt) })
      : t('moderation.dialog.ended', { date: date(s.endsAt ?? s.startsAt) });
  return (
    <Box
      data-testid="sanction-row"
      sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={s.active ? (s.kind === 'ban' ? 'error' : 'warning') : 'default'}
          label={t(`moderation.kinds.${s.kind}`)}
        />
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {status}
        </Typography>
        {s.active && !lifting && (
          <Button size="small" sx={{ ml: 'auto' }} onClick={() => setLifting(true)}>
            {t('moderation.dialog.lift')}
          </Button>
        )}
      </Box>
      <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
        {s.reason}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t('moderation.dialog.by', { name: s.createdBy.name ?? '–', date: date(s.startsAt) })}
      </Typography>
      {lifting && (
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap', alignItems: 'center' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim()) lift.mutate();
          }}
        >
          <TextField
            size="small"
            autoFocus
            label={t('moderation.dialog.liftReason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ flex: '1 1 180px' }}
          />
          <Button type="submit" variant="outlined" disabled={!reason.trim() || lift.isPending}>
            {t('moderation.dialog.confirmLift')}
          </Button>
          <Button onClick={() => setLifting(false)}>{t('moderation.dialog.cancel')}</Button>
        </Box>
      )}
    </Box>
  );
}
