/**
 * Settings: "Notify me at N/10" (docs/contract.md §4 "Queue alerts"): the threshold (off or 1–9 of
 * 10), the channels (only those the player has linked can be ticked), quiet hours in the browser's
 * time zone. Saved with PUT /api/profile/queue-alert.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PLAYERS_PER_MATCH, QUEUE_ALERT_CHANNELS, type QueueAlert, queueAlertSchema } from '@openpug/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { NotificationOptIn } from '../queue';
import {
  bodyOf,
  browserTimeZone,
  formOf,
  formProblem,
  HOURS,
  type QueueAlertForm,
  THRESHOLDS,
  toggleChannel,
} from './state';

const QUERY_KEY = ['queue-alert'];
const OFF = 'off';
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

function HourSelect({
  label,
  value,
  disabled,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  disabled: boolean;
  onChange(h: number): void;
  testId: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(Number(e.target.value))}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
      sx={{ minWidth: 110 }}
    >
      {HOURS.map((h) => (
        <MenuItem key={h} value={h}>
          {hourLabel(h)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function QueueAlertSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const timeZone = browserTimeZone();
  const query = useQuery({
    queryKey: QUERY_KEY,
    // An answer of another shape (an older server) shows no form rather than a broken one.
    queryFn: async ({ signal }) =>
      queueAlertSchema.parse(await api.get<QueueAlert>('/profile/queue-alert', { signal, silent: true })),
  });
  const [form, setForm] = useState<QueueAlertForm | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (query.data) setForm(formOf(query.data));
  }, [query.data]);
  if (!query.data || !form) return null;
  const available = query.data.available;
  const problem = formProblem(form);

  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.put<QueueAlert>('/profile/queue-alert', bodyOf(form, timeZone));
      client.setQueryData(QUERY_KEY, saved);
      setSuccessMessage({ key: 'queueAlerts.saved', timeout: 4000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box data-testid="queue-alert">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('queueAlerts.intro')}
      </Typography>
      <TextField
        select
        size="small"
        label={t('queueAlerts.threshold')}
        value={form.threshold ?? OFF}
        onChange={(e) =>
          setForm({ ...form, threshold: e.target.value === OFF ? null : Number(e.target.value) })
        }
        slotProps={{ htmlInput: { 'data-testid': 'queue-alert-threshold' } }}
        sx={{ minWidth: 200, mb: 2 }}
      >
        <MenuItem value={OFF}>{t('queueAlerts.off')}</MenuItem>
        {THRESHOLDS.map((n) => (
          <MenuItem key={n} value={n}>
            {t('queueAlerts.atCount', { count: n, total: PLAYERS_PER_MATCH })}
          </MenuItem>
        ))}
      </TextField>

      <Typography component="h3" sx={{ fontWeight: 700, fontSize: '0.95rem' }}>
        {t('queueAlerts.channels')}
      </Typography>
      <FormGroup sx={{ mb: 1 }}>
        {QUEUE_ALERT_CHANNELS.map((c) => (
          <Box key={c}>
            <FormControlLabel
              label={t(`queueAlerts.channel.${c}`)}
              disabled={!available[c] || form.threshold === null}
              control={
                <Checkbox
                  checked={form.channels.includes(c)}
                  onChange={(e) => setForm(toggleChannel(form, c, e.target.checked))}
                  slotProps={{ input: { 'data-testid': `queue-alert-channel-${c}` } as object }}
                />
              }
            />
            {!available[c] && (
              <FormHelperText sx={{ mt: -1, ml: 4 }}>{t(`queueAlerts.notLinked.${c}`)}</FormHelperText>
            )}
          </Box>
        ))}
      </FormGroup>
      {form.channels.includes('desktop') && <NotificationOptIn sx={{ display: 'block', mb: 1 }} />}

      <FormControlLabel
        label={t('queueAlerts.quiet')}
        disabled={form.threshold === null}
        control={
          <Checkbox
            checked={form.quiet}
            onChange={(e) => setForm({ ...form, quiet: e.target.checked })}
            slotProps={{ input: { 'data-testid': 'queue-alert-quiet' } as object }}
          />
        }
      />
      <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <HourSelect
          label={t('queueAlerts.quietFrom')}
          value={form.quietFrom}
          disabled={!form.quiet || form.threshold === null}
          onChange={(quietFrom) => setForm({ ...form, quietFrom })}
          testId="queue-alert-quiet-from"
        />
        <HourSelect
          label={t('queueAlerts.quietTo')}
          value={form.quietTo}
          disabled={!form.quiet || form.threshold === null}
          onChange={(quietTo) => setForm({ ...form, quietTo })}
          testId="queue-alert-quiet-to"
        />
      </Stack>
      <FormHelperText error={problem !== null} data-testid="queue-alert-quiet-help">
        {problem ? t(problem) : t('queueAlerts.quietHelp', { tz: timeZone })}
      </FormHelperText>
      <Button
        sx={{ mt: 2 }}
        variant="contained"
        disabled={saving || problem !== null}
        onClick={() => void save().catch(() => undefined)}
        data-testid="queue-alert-save"
      >
        {t('queueAlerts.save')}
      </Button>
    </Box>
  );
}
