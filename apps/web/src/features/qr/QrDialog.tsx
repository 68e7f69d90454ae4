/**
 * The QR dialog (docs/contract.md §1, §2, §9): a 200 px QR code of the mobile queue address with the user id
 * and a one-time login token (POST /api/mobile/link; never the session token). The QR encoder
 * (`qrcode`) loads only when the dialog opens. A fresh code is fetched each time it opens and
 * when the last one expires.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { type MobileLink, QR_CODE_SIZE_PX } from '@openpug/shared';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { useSession } from '../session';
import { closeQrDialog, useQrDialog } from './state';

const QR_SIZE = QR_CODE_SIZE_PX;

async function renderQr(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, {
    width: QR_SIZE,
    margin: 1,
    errorCorrectionLevel: 'M',
    color: { dark: '#0b0f17', light: '#ffffff' },
  });
}

export function QrDialog() {
  const { t } = useTranslation();
  const open = useQrDialog((s) => s.open);
  const name = useSession((s) => s.user?.name) ?? '';
  const [link, setLink] = useState<MobileLink | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);

  const refresh = useCallback(async () => {
    setImage(null);
    setExpired(false);
    const next = await api.post<MobileLink>('/mobile/link', undefined, { silent: true });
    setLink(next);
    setImage(await renderQr(next.url));
  }, []);

  useEffect(() => {
    if (!open) {
      setLink(null);
      setImage(null);
      return;
    }
    void refresh().catch(() => setExpired(true));
  }, [open, refresh]);

  useEffect(() => {
    if (!link) return;
    const id = setTimeout(() => setExpired(true), Math.max(0, link.expiresAt - Date.now()));
    return () => clearTimeout(id);
  }, [link]);

  return (
    <Dialog open={open} onClose={closeQrDialog} maxWidth="xs" fullWidth aria-labelledby="qr-title">
      <DialogTitle id="qr-title">{t('reach.qr.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('reach.qr.scan', { name })}
        </Typography>
        <Box
          sx={{
            width: QR_SIZE,
            height: QR_SIZE,
            mx: 'auto',
            borderRadius: 2,
            overflow: 'hidden',
            display: 'grid',
            placeItems: 'center',
            bgcolor: '#fff',
            position: 'relative',
          }}
        >
          {image ? (
            <img
              src={image}
              width={QR_SIZE}
              height={QR_SIZE}
              alt={t('reach.qr.title')}
              data-testid="qr-image"
              data-url={link?.url}
              style={{ display: 'block', filter: expired ? 'blur(4px)' : undefined }}
            />
          ) : (
            !expired && <CircularProgress size={32} aria-label={t('dialogs.loading')} />
          )}
          {expired && (
            <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 2 }}>
              <Button variant="contained" onClick={() => void refresh().catch(() => setExpired(true))}>
                {t('reach.qr.refresh')}
              </Button>
            </Box>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
          {expired ? t('reach.qr.expired') : t('reach.qr.once')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {t('reach.qr.install')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={closeQrDialog}>{t('reach.qr.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
