/** The after-match result dialog (docs/contract.md §4 step 6): victory or defeat, the real Elo change and the new Elo. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import type { MatchResultPayload } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSocketEvent } from '../socket';
import { describeResult } from './result';

export function MatchResultDialog() {
  const { t } = useTranslation();
  const [result, setResult] = useState<MatchResultPayload | null>(null);
  // The session rules store the new Elo and rank (also when this dialog is not mounted).
  useSocketEvent('PRIVATE_MATCH_RESULT', (payload) => setResult(payload));
  if (!result) return null;
  const view = describeResult(result);
  const win = result.victory;
  const close = () => setResult(null);
  return (
    <Dialog
      open
      onClose={close}
      aria-labelledby="result-title"
      data-testid="result-dialog"
      slotProps={{ paper: { sx: { width: 420, maxWidth: 'calc(100% - 24px)', m: 1.5, overflow: 'hidden' } } }}
    >
      <Box
        sx={{
          py: 4,
          textAlign: 'center',
          background: win
            ? 'radial-gradient(circle at 50% 0%, rgba(46,204,113,0.35), transparent 70%)'
            : 'radial-gradient(circle at 50% 0%, rgba(231,76,60,0.35), transparent 70%)',
        }}
      >
        <Typography
          id="result-title"
          variant="h2"
          sx={{ fontSize: '2.2rem', fontWeight: 900, letterSpacing: '0.06em', textTransform: 'uppercase' }}
          color={win ? 'success.main' : 'error.main'}
        >
          {win ? t('matchResult.victory') : t('matchResult.defeat')}
        </Typography>
        <Typography
          data-testid="result-change"
          sx={{
            fontSize: '3rem',
            fontWeight: 900,
            fontVariantNumeric: 'tabular-nums',
            lineHeight: 1.2,
            mt: 1,
          }}
        >
          {view.signed}
        </Typography>
        <Typography color="text.secondary">{t('matchResult.eloUnit')}</Typography>
      </Box>
      <DialogContent sx={{ textAlign: 'center', pt: 0 }}>
        <Typography data-testid="result-text">
          {t(view.key, { change: Math.abs(view.change), newElo: view.newElo })}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'center', pb: 2.5, gap: 1 }}>
        <Button component={Link} to={`/match/${result.matchId}`} onClick={close} color="inherit">
          {t('matchResult.showMatch')}
        </Button>
        <Button variant="contained" onClick={close}>
          {t('queue.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
