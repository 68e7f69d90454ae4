/**
 * A live match's leavers (MATCH_STATE.leavers, docs/contract.md §4 "Leavers and the 80 % rule"):
 * players gone from the game server for longer than the grace. Everyone sees who left; the
 * captain of a leaver's team gets "Request substitute" (`substitute-request`), which offers the
 * slot to the queue; while that offer runs the row says so with its countdown.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { MatchState, TeamKey } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Timer } from '../../ui/Timer';
import { TEAM_COLOURS } from './MatchHeader';

export function LeaversPanel({
  state,
  myId,
  onRequest,
}: {
  state: MatchState;
  myId: string | null;
  onRequest(userId: string): Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const leavers = state.leavers ?? [];
  if (state.status !== 'active' || leavers.length === 0) return null;
  const offer = state.substituteOffer ?? null;
  const teamOf = (id: string): TeamKey | null =>
    state.teamOne.players.some((p) => p._id === id)
      ? 'teamOne'
      : state.teamTwo.players.some((p) => p._id === id)
        ? 'teamTwo'
        : null;
  const nameOf = (id: string) =>
    [...state.teamOne.players, ...state.teamTwo.players].find((p) => p._id === id)?.name ?? id;
  const request = (id: string) => {
    setBusy(id);
    void onRequest(id)
      .catch(() => undefined)
      .finally(() => setBusy(null));
  };
  return (
    <Box
      data-testid="leavers-panel"
      role="status"
      sx={{
        p: 2,
        borderRadius: 2,
        border: '1px solid',
        borderColor: 'warning.main',
        bgcolor: 'rgba(255,255,255,0.04)',
        display: 'grid',
        gap: 1.5,
        minWidth: 0,
      }}
    >
      <Typography variant="h6" sx={{ overflowWrap: 'anywhere' }}>
        {t('match.leavers.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('match.leavers.hint')}
      </Typography>
      {leavers.map((id) => {
        const team = teamOf(id);
        const mine = !!myId && !!team && state[team].captain._id === myId;
        const searching = offer?.slots.includes(id) ?? false;
        return (
          <Box
            key={id}
            data-testid="leaver"
            sx={{
              display: 'flex',
              alignItems: 'center',
              flexWrap: 'wrap',
              gap: 1,
              minWidth: 0,
              pl: 1,
              borderLeft: `3px solid ${team ? TEAM_COLOURS[team] : 'transparent'}`,
            }}
          >
            <Typography noWrap sx={{ flex: '1 1 8rem', minWidth: 0, fontWeight: 700 }}>
              {nameOf(id)}
            </Typography>
            <Chip size="small" color="error" label={t('match.leavers.left')} />
            {searching && offer ? (
              <Typography variant="body2" data-testid="substitute-searching">
                {t('match.leavers.searching')} · <Timer deadline={offer.deadline} />
              </Typography>
            ) : (
              mine && (
                <Button
                  size="small"
                  variant="contained"
                  disabled={busy === id}
                  onClick={() => request(id)}
                  data-testid="request-substitute"
                >
                  {t('match.leavers.request')}
                </Button>
              )
            )}
          </Box>
        );
      })}
    </Box>
  );
}
