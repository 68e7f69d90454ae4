import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { HELP_MESSAGE_MAX, type MatchState, type TeamKey } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { setSuccessMessage } from '../../features/app-state/store';
import { MapArt } from '../../features/matches/MapArt';
import { sortedStats } from '../../features/matches/permissions';
import { TEAM_COLOURS } from './MatchHeader';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(value).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ width: '100%', fontWeight: 700, letterSpacing: '0.06em' }}
      >
        {label}
      </Typography>
      <Box
        component="code"
        data-testid={testId}
        sx={{
          flex: 1,
          minWidth: 0,
          px: 1.5,
          py: 1,
          borderRadius: 1.5,
          bgcolor: 'rgba(0,0,0,0.35)',
          fontSize: '0.95rem',
          overflowWrap: 'anywhere',
        }}
      >
        {value}
      </Box>
      <Button size="small" variant="outlined" onClick={copy}>
        {copied ? t('match.copied') : t('match.copy')}
      </Button>
    </Box>
  );
}

/** Connect box: participants get `connect ip:port` and a steam:// button, spectators the GOTV address. */
export function ServerBox({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  if (!state.server) {
    return (
      <Typography color="text.secondary" data-testid="server-pending">
        {t('match.serverPending')}
      </Typography>
    );
  }
  const { connect, gotv } = state.server;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="server-box">
      {connect ? (
        <>
          <CopyField label={t('match.connect')} value={`connect ${connect}`} testId="connect-command" />
          <Button
            variant="contained"
            size="large"
            href={`steam://connect/${connect}`}
            data-testid="steam-connect"
          >
            {t('match.joinServer')}
          </Button>
        </>
      ) : (
        <CopyField label={t('match.gotv')} value={`connect ${gotv}`} testId="gotv-command" />
      )}
    </Box>
  );
}

export function MapPanel({ state }: { state: MatchState }) {
  if (!state.map) return null;
  return (
    <Box
      sx={{ borderRadius: 3, overflow: 'hidden', border: '1px solid', borderColor: 'divider' }}
      data-testid="match-map"
    >
      <MapArt mapKey={state.map.key} name={state.map.name} />
    </Box>
  );
}

export function Scoreboard({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const finished = state.status === 'finished';
  const teams: TeamKey[] = ['teamOne', 'teamTwo'];
  if (state.stats.length === 0) return <Typography color="text.secondary">{t('match.noStats')}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="scoreboard">
      {teams.map((team) => (
        <Box key={team} sx={{ overflowX: 'auto' }}>
          <Typography sx={{ fontWeight: 800, color: TEAM_COLOURS[team], mb: 0.5 }}>
            {state[team].name} · {state.score[team]}
          </Typography>
          <Table size="small" sx={{ '& td, & th': { px: 1, whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('match.player')}</TableCell>
                <TableCell align="right">K</TableCell>
                <TableCell align="right">A</TableCell>
                <TableCell align="right">D</TableCell>
                <TableCell align="right">{t('match.adr')}</TableCell>
                {finished && <TableCell align="right">Elo</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {sortedStats(state, team).map((s) => {
                const change = s.eloAfter !== null && s.eloBefore !== null ? s.eloAfter - s.eloBefore : null;
                return (
                  <TableRow key={s.userId} data-testid="score-row">
                    <TableCell sx={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      <Link to={`/user/${s.userId}`} style={{ color: 'inherit' }}>
                        {s.name}
                      </Link>
                    </TableCell>
                    <TableCell align="right" sx={{ fontWeight: 800 }}>
                      {s.kills}
                    </TableCell>
                    <TableCell align="right">{s.assists}</TableCell>
                    <TableCell align="right">{s.deaths}</TableCell>
                    <TableCell align="right">
                      {Math.round(s.damage / Math.max(1, state.score.teamOne + state.score.teamTwo))}
                    </TableCell>
                    {finished && (
                      <TableCell
                        align="right"
                        sx={{ color: change && change > 0 ? 'success.main' : 'error.main', fontWeight: 700 }}
                      >
                        {change === null ? '–' : `${change > 0 ? '+' : ''}${change}`}
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      ))}
    </Box>
  );
}

export function HelpButton({ onSend }: { onSend: (msg: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [msg, setMsg] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      await onSend(msg.trim());
      setOpen(false);
      setMsg('');
      setSuccessMessage({ key: 'match.help.sent', params: {}, timeout: 4000 });
    } catch {
      // the error dialog shows the key
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outlined" color="warning" onClick={() => setOpen(true)} data-testid="help-button">
        {t('match.help.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{t('match.help.title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            name="help"
            label={t('match.help.label')}
            value={msg}
            onChange={(e) => setMsg(e.target.value)}
            slotProps={{ htmlInput: { maxLength: HELP_MESSAGE_MAX } }}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('match.help.cancel')}</Button>
          <Button variant="contained" disabled={busy || msg.trim() === ''} onClick={() => void send()}>
            {t('match.help.send')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
