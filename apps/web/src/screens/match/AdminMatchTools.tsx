/**
 * Admin match tools on the match page (docs/contract.md §4 "Admin match tools"): one dialog with
 * the tools the match's phase allows (matchToolsFor) — move to another server, swap a player, force
 * a result, correct a finished match, void it — each with a required reason. The input is checked
 * with the shared schemas before it is sent; the server checks again and answers the new state,
 * which reaches the page through the room's MATCH_STATE like any other change.
 */
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  adminMatchCorrectSchema,
  adminMatchMoveSchema,
  adminMatchResultSchema,
  adminMatchSwapSchema,
  adminMatchVoidSchema,
  type MatchState,
  type UsersPage,
  winnerOfScore,
} from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state/store';
import { type MatchTool, matchToolsFor } from '../../features/matches/permissions';
import { useSession } from '../../features/session/store';

const schemas = {
  move: adminMatchMoveSchema,
  swap: adminMatchSwapSchema,
  result: adminMatchResultSchema,
  correct: adminMatchCorrectSchema,
  void: adminMatchVoidSchema,
} as const;

type Person = { _id: string; name: string | null };

/** Players to swap in: the directory filtered by name (admins see everyone). */
function PlayerSearch({ value, onChange }: { value: Person | null; onChange: (p: Person | null) => void }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const found = useQuery({
    queryKey: ['admin', 'match-tools', 'users', filter],
    queryFn: ({ signal }) =>
      api.get<UsersPage>('/users', {
        query: { page: 1, limit: 10, filter: filter.trim() || undefined },
        signal,
      }),
    enabled: filter.trim().length > 0,
  });
  const options: Person[] = (found.data?.docs ?? []).map((u) => ({ _id: u._id, name: u.name ?? null }));
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_, p) => onChange(p)}
      onInputChange={(_, text) => setFilter(text)}
      getOptionLabel={(p) => p.name ?? p._id}
      isOptionEqualToValue={(a, b) => a._id === b._id}
      filterOptions={(x) => x}
      noOptionsText={t('match.tools.noPlayers')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('match.tools.playerIn')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'tools-player-in' },
          }}
        />
      )}
    />
  );
}

export function AdminMatchTools({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const role = useSession((s) => s.user?.role);
  const tools = matchToolsFor(state, role);
  // MUI's `sm` breakpoint (600 px), as the rest of the page uses it.
  const phone = useMediaQuery('(max-width:599.95px)');
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<MatchTool | null>(null);
  const [reason, setReason] = useState('');
  const [score, setScore] = useState({ teamOne: '', teamTwo: '' });
  const [map, setMap] = useState('');
  const [out, setOut] = useState('');
  const [incoming, setIncoming] = useState<Person | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (tools.length === 0) return null;
  const tool = chosen && tools.includes(chosen) ? chosen : tools[0];

  const begin = () => {
    setChosen(tools[0]);
    setReason('');
    setScore({ teamOne: String(state.score.teamOne), teamTwo: String(state.score.teamTwo) });
    setMap(state.map?.key ?? '');
    setOut('');
    setIncoming(null);
    setProblem(null);
    setOpen(true);
  };
  const numbers = {
    teamOne: Number(score.teamOne || Number.NaN),
    teamTwo: Number(score.teamTwo || Number.NaN),
  };
  const winner = Number.isFinite(numbers.teamOne + numbers.teamTwo) ? winnerOfScore(numbers) : null;
  const body = (): Record<string, unknown> => {
    switch (tool) {
      case 'swap':
        return { out, in: incoming?._id ?? '', reason };
      case 'result':
        return { winner, score: numbers, reason };
      case 'correct':
        return { winner, score: numbers, map, reason };
      default:
        return { reason };
    }
  };
  const submit = async () => {
    const parsed = schemas[tool].safeParse(body());
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'INVALID_INPUT');
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await api.post(`/admin/matches/${state._id}/${tool}`, parsed.data, { silent: true });
      setOpen(false);
      setSuccessMessage({ key: `match.tools.done.${tool}`, timeout: 4000 });
    } catch (err) {
      setProblem((err as { key?: string }).key ?? 'ERROR');
    } finally {
      setBusy(false);
    }
  };
  const roster = [...state.teamOne.players, ...state.teamTwo.players, ...state.pool];
  const teamName = (w: typeof winner) =>
    w === 'teamOne' || w === 'teamTwo' ? state[w].name : t('match.draw');

  return (
    <>
      <Button variant="outlined" color="warning" onClick={begin} data-testid="admin-match-tools">
        {t('match.tools.button')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="match-tools-title"
      >
        <DialogTitle id="match-tools-title">{t('match.tools.title')}</DialogTitle>
        <DialogContent>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={tool}
              // Stacked on a phone: the German labels do not fit side by side at 390 px.
              orientation={phone ? 'vertical' : 'horizontal'}
              onChange={(_, v: MatchTool | null) => v && setChosen(v)}
              sx={{ '& .MuiToggleButton-root': { flex: '1 1 0', textTransform: 'none' } }}
            >
              {tools.map((x) => (
                <ToggleButton key={x} value={x} data-testid={`tool-${x}`}>
                  {t(`match.tools.${x}.name`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <Typography color="text.secondary" variant="body2">
              {t(`match.tools.${tool}.text`)}
            </Typography>
            {tool === 'swap' && (
              <>
                <TextField
                  select
                  label={t('match.tools.playerOut')}
                  value={out}
                  onChange={(e) => setOut(e.target.value)}
                  slotProps={{ htmlInput: { 'data-testid': 'tools-player-out' } }}
                >
                  {roster.map((p) => (
                    <MenuItem key={p._id} value={p._id}>
                      {p.name}
                    </MenuItem>
                  ))}
                </TextField>
                <PlayerSearch value={incoming} onChange={setIncoming} />
              </>
            )}
            {(tool === 'result' || tool === 'correct') && (
              <>
                <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
                  {(['teamOne', 'teamTwo'] as const).map((k) => (
                    <TextField
                      key={k}
                      type="number"
                      label={state[k].name}
                      value={score[k]}
                      onChange={(e) => setScore((s) => ({ ...s, [k]: e.target.value }))}
                      slotProps={{ htmlInput: { min: 0, max: 99, 'data-testid': `tools-score-${k}` } }}
                    />
                  ))}
                </Box>
                <Typography data-testid="tools-winner">
                  {t('match.tools.winner', { team: winner ? teamName(winner) : '—' })}
                </Typography>
              </>
            )}
            {tool === 'correct' && (
              <TextField
                select
                label={t('match.tools.map')}
                value={map}
                onChange={(e) => setMap(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'tools-map' } }}
              >
                {state.mapVeto.pool.map((m) => (
                  <MenuItem key={m.key} value={m.key}>
                    {m.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              label={t('match.tools.reason')}
              helperText={t('match.tools.reasonHelp')}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              multiline
              minRows={2}
              required
              slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'tools-reason' } }}
            />
            {problem && (
              <Alert severity="error" data-testid="tools-problem">
                {t(problem)}
              </Alert>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('match.adminCancel.back')}</Button>
          <Button
            variant="contained"
            color={tool === 'void' ? 'error' : 'warning'}
            disabled={busy}
            onClick={() => void submit()}
            data-testid="tools-submit"
          >
            {t(`match.tools.${tool}.name`)}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
