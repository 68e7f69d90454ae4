/**
 * Settings row: WhatsApp (docs/contract.md §4). Unlinked: number → code sent over WhatsApp → confirm. Linked:
 * the number, the notification toggle (whatsApp.ENABLED / DISABLED from the server's reply) and
 * unlink. Validation uses the shared phone schema. When WhatsApp reported that it could not reach
 * the number (GET /api/profile/whatsAppStatus → paused), a warning says so and offers to link the
 * number again, which ends the pause.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { linkWhatsAppBodySchema, type WhatsAppStatus } from '@openpug/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkedAccountRow } from '../accounts';
import { api } from '../api';
import { setLoading, setSuccessMessage } from '../app-state';
import { updateSessionUser, useSession } from '../session';
import { WhatsAppGlyph } from './icons';

/** An input with its buttons: side by side from the sm width, stacked on phones. */
function InputRow({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
      {children}
    </Stack>
  );
}

export function WhatsAppRow() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user) as { phone?: string | null; whatsAppEnabled?: boolean } | null;
  const phone = user?.phone ?? null;
  const [editing, setEditing] = useState(false);
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState(false);
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: ['reach', 'whatsApp', phone],
    queryFn: ({ signal }) => api.get<WhatsAppStatus>('/profile/whatsAppStatus', { signal, silent: true }),
    enabled: Boolean(phone),
  });
  const paused = Boolean(phone && status.data?.paused);

  const sendCode = async () => {
    const parsed = linkWhatsAppBodySchema.safeParse({ phone: number });
    if (!parsed.success) {
      setNumberError(t(parsed.error.issues[0]?.message ?? 'PHONE_IS_NOT_VALID'));
      return;
    }
    setNumberError(null);
    setLoading(true);
    try {
      await api.post('/profile/linkWhatsApp', parsed.data);
      setSentTo(parsed.data.phone);
      setCode('');
      setCodeError(false);
    } finally {
      setLoading(false);
    }
  };

  const confirm = async () => {
    if (!sentTo) return;
    setLoading(true);
    try {
      const res = await api.post<{ success: boolean }>('/profile/whatsAppCode', { phone: sentTo, code });
      if (!res.success) {
        setCodeError(true);
        return;
      }
      updateSessionUser({ phone: sentTo, whatsAppEnabled: true } as Record<string, unknown>);
      void queryClient.invalidateQueries({ queryKey: ['reach', 'whatsApp'] });
      setSuccessMessage({ key: 'whatsApp.ENABLED', timeout: 4000 });
      setEditing(false);
      setSentTo(null);
      setNumber('');
    } finally {
      setLoading(false);
    }
  };

  const toggle = async () => {
    const res = await api.patch<{ whatsAppEnabled: boolean }>('/profile/whatsAppEnabled');
    updateSessionUser({ whatsAppEnabled: res.whatsAppEnabled } as Record<string, unknown>);
    setSuccessMessage({ key: res.whatsAppEnabled ? 'whatsApp.ENABLED' : 'whatsApp.DISABLED', timeout: 4000 });
  };

  const unlink = async () => {
    await api.post('/profile/unlinkWhatsApp');
    updateSessionUser({ phone: null, whatsAppEnabled: false } as Record<string, unknown>);
    setSuccessMessage({ key: 'whatsApp.DISABLED', timeout: 4000 });
  };

  const relink = () => {
    setNumber(phone ?? '');
    setSentTo(null);
    setEditing(true);
  };

  const form = editing && (!phone || paused) && (
    <Stack spacing={1.5} sx={{ width: '100%', pt: 0.5 }}>
      {!sentTo ? (
        <InputRow>
          <TextField
            size="small"
            label={t('reach.whatsApp.phone')}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && void sendCode()}
            error={Boolean(numberError)}
            helperText={numberError ?? t('reach.whatsApp.phoneHelp')}
            placeholder="+49 170 1234567"
            slotProps={{
              htmlInput: { inputMode: 'tel', autoComplete: 'tel', 'data-testid': 'whatsapp-phone' },
            }}
            sx={{ flex: 1 }}
          />
          <Button variant="contained" onClick={() => void sendCode()} disabled={!number.trim()}>
            {t('reach.whatsApp.sendCode')}
          </Button>
        </InputRow>
      ) : (
        <Stack spacing={1}>
          <span>{t('reach.whatsApp.codeSent', { phone: sentTo })}</span>
          <InputRow>
            <TextField
              size="small"
              label={t('reach.whatsApp.code')}
              value={code}
              onChange={(e) => {
                setCode(e.target.value.replace(/\D/g, '').slice(0, 4));
                setCodeError(false);
              }}
              onKeyDown={(e) => e.key === 'Enter' && code.length === 4 && void confirm()}
              error={codeError}
              helperText={codeError ? t('reach.whatsApp.wrongCode') : ' '}
              slotProps={{
                htmlInput: {
                  inputMode: 'numeric',
                  autoComplete: 'one-time-code',
                  'data-testid': 'whatsapp-code',
                },
              }}
              sx={{ width: { sm: 160 } }}
            />
            <Button variant="contained" onClick={() => void confirm()} disabled={code.length !== 4}>
              {t('reach.whatsApp.confirm')}
            </Button>
            <Button onClick={() => setSentTo(null)}>{t('reach.whatsApp.changeNumber')}</Button>
          </InputRow>
        </Stack>
      )}
    </Stack>
  );

  return (
    <>
      <LinkedAccountRow
        testId="linked-whatsapp"
        icon={<WhatsAppGlyph />}
        title="WhatsApp"
        linked={Boolean(phone)}
        detail={phone ? t('reach.whatsApp.linkedAs', { phone }) : t('reach.whatsApp.hint')}
        action={
          phone ? (
            <Button variant="outlined" color="error" onClick={() => void unlink().catch(() => undefined)}>
              {t('reach.whatsApp.unlink')}
            </Button>
          ) : editing ? null : (
            <Button variant="outlined" onClick={() => setEditing(true)}>
              {t('reach.whatsApp.linkCta')}
            </Button>
          )
        }
      />
      {paused && (
        <Alert
          data-testid="whatsapp-unreachable"
          severity="warning"
          sx={{ mb: 1.5 }}
          action={
            editing ? null : (
              <Button color="inherit" size="small" onClick={relink}>
                {t('reach.whatsApp.relink')}
              </Button>
            )
          }
        >
          {t('reach.whatsApp.unreachable', { phone })}
        </Alert>
      )}
      {form}
      {phone && (
        <FormControlLabel
          sx={{ ml: { xs: 0, sm: 6.5 }, mt: -0.5, mb: 1.5, display: 'flex', width: 'fit-content' }}
          control={
            <Switch
              checked={Boolean(user?.whatsAppEnabled)}
              onChange={() => void toggle().catch(() => undefined)}
              data-testid="whatsapp-toggle"
            />
          }
          label={t('reach.whatsApp.notify')}
        />
      )}
    </>
  );
}
