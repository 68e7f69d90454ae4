/**
 * A substitute offer (PRIVATE_SUBSTITUTE_OFFER): a player of a match never came onto the game
 * server, and queued players may take their slot. Shows the match's map, the team and the time
 * left; Accept sends `substitute-accept` — the first one wins, the others are refused
 * (SUBSTITUTE_TAKEN / SUBSTITUTE_EXPIRED, shown in the error dialog). The winner is sent to the
 * match room (PRIVATE_MATCH_START, queue events). PUBLIC_SUBSTITUTE_CLOSED or the deadline closes it.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { SubstituteOfferPayload } from '@openpug/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Timer } from '../../ui/Timer';
import { emitWithAck, getSocket, useSocketEvent } from '../socket';
import { MapArt } from './MapArt';

export function SubstituteOfferView({
  offer,
  busy,
  onAccept,
  onClose,
}: {
  offer: SubstituteOfferPayload;
  busy: boolean;
  onAccept(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="substitute-offer">
      <DialogTitle>{t('substitute.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        {offer.map && <MapArt mapKey={offer.map.key} name={offer.map.name} />}
        <Typography>{t('substitute.body', { team: offer.teamName, map: offer.map?.name ?? '—' })}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('substitute.firstWins', { count: offer.slots })}
        </Typography>
        <Typography variant="body2">
          {t('substitute.timeLeft')} <Timer deadline={offer.deadline} />
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('substitute.dismiss')}</Button>
        <Button variant="contained" disabled={busy} onClick={onAccept} data-testid="substitute-accept">
          {t('substitute.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function SubstituteOfferDialog() {
  const [offer, setOffer] = useState<SubstituteOfferPayload | null>(null);
  const [busy, setBusy] = useState(false);
  useSocketEvent('PRIVATE_SUBSTITUTE_OFFER', (o) => setOffer(o));
  useSocketEvent('PUBLIC_SUBSTITUTE_CLOSED', ({ matchId }) =>
    setOffer((o) => (o?.matchId === matchId ? null : o)),
  );
  useEffect(() => {
    if (!offer) return;
    const timer = setTimeout(() => setOffer(null), Math.max(0, offer.deadline - Date.now()));
    return () => clearTimeout(timer);
  }, [offer]);
  if (!offer) return null;
  const accept = () => {
    setBusy(true);
    emitWithAck(getSocket(), 'substitute-accept', { matchId: offer.matchId })
      .then(() => setOffer(null))
      .catch(() => setOffer(null))
      .finally(() => setBusy(false));
  };
  return <SubstituteOfferView offer={offer} busy={busy} onAccept={accept} onClose={() => setOffer(null)} />;
}
