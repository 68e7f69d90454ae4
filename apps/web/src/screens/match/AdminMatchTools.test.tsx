import type { MatchPlayer, MatchState } from '@openpug/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAppState } from '../../features/app-state/store';
import { logout, useSession } from '../../features/session/store';
import { initI18n } from '../../i18n';
import { AdminMatchTools } from './AdminMatchTools';

const MATCH_ID = '7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f';
const p = (id: string): MatchPlayer => ({ _id: id, name: id, avatar: null, elo: 200 });
const active = {
  _id: MATCH_ID,
  status: 'active',
  createdAt: 0,
  teamOne: { name: 'Team Ann', captain: p('ann'), players: [p('ann')] },
  teamTwo: { name: 'Team Bob', captain: p('bob'), players: [p('bob')] },
  pool: [],
  turn: null,
  deadline: null,
  mapVeto: { pool: [{ key: 'de_dust2', name: 'Dust II' }], bans: [] },
  map: { key: 'de_dust2', name: 'Dust II' },
  server: { gotv: '10.0.0.1:27020' },
  score: { teamOne: 4, teamTwo: 2 },
  stats: [],
  winner: null,
  cancelReason: null,
  connect: null,
} as unknown as MatchState;

const signIn = (role: 'ADMIN' | 'USER') =>
  useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'me', role } });

describe('admin match tools on the match page', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('is for admins only', () => {
    signIn('USER');
    render(<AdminMatchTools state={active} />);
    expect(screen.queryByTestId('admin-match-tools')).toBeNull();
  });

  it('checks the input before sending, posts the result with the winner the score gives, shows refusals', async () => {
    signIn('ADMIN');
    const calls: { url: string; body: unknown }[] = [];
    let answer: Response = new Response(JSON.stringify({ errors: { msg: 'WRONG_MATCH_PHASE' } }), {
      status: 409,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init.body)) });
        return answer;
      }),
    );
    render(<AdminMatchTools state={active} />);
    fireEvent.click(screen.getByTestId('admin-match-tools'));
    await screen.findByRole('dialog', { name: 'Admin match tools' });
    expect(screen.getByTestId('tool-move').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('tool-result'));
    fireEvent.change(screen.getByTestId('tools-score-teamOne'), { target: { value: '13' } });
    fireEvent.change(screen.getByTestId('tools-score-teamTwo'), { target: { value: '9' } });
    expect(screen.getByTestId('tools-winner').textContent).toBe('Winner: Team Ann');

    // No reason: refused here, nothing sent.
    fireEvent.click(screen.getByTestId('tools-submit'));
    expect((await screen.findByTestId('tools-problem')).textContent).toBe('Missing fields');
    expect(calls).toEqual([]);

    fireEvent.change(screen.getByTestId('tools-reason'), { target: { value: 'server died at 13:9' } });
    fireEvent.click(screen.getByTestId('tools-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('tools-problem').textContent).toBe(
        'That is not possible in this phase of the match',
      ),
    );
    expect(calls).toEqual([
      {
        url: `/api/admin/matches/${MATCH_ID}/result`,
        body: { winner: 'teamOne', score: { teamOne: 13, teamTwo: 9 }, reason: 'server died at 13:9' },
      },
    ]);

    answer = new Response(JSON.stringify({ ...active, status: 'finished' }), { status: 200 });
    fireEvent.click(screen.getByTestId('tools-submit'));
    await waitFor(() => expect(useAppState.getState().successMessage?.key).toBe('match.tools.done.result'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
