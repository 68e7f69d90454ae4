import type { MatchStatus } from '@openpug/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAppState } from '../../features/app-state/store';
import { logout, useSession } from '../../features/session/store';
import { changeLanguage, initI18n } from '../../i18n';
import { AdminCancelButton } from './AdminCancelButton';

const MATCH_ID = '7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f';
const signIn = (role: 'ADMIN' | 'USER') =>
  useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'me', role } });
const renderFor = (status: MatchStatus) => render(<AdminCancelButton state={{ _id: MATCH_ID, status }} />);

describe('admin cancel on the match page', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('shows the button to admins while the match is not over, to nobody else', () => {
    signIn('ADMIN');
    for (const status of ['playerveto', 'mapveto', 'active'] as const) {
      renderFor(status);
      expect(screen.getByRole('button', { name: 'Cancel match' })).toBeTruthy();
      cleanup();
    }
    for (const status of ['finished', 'cancelled'] as const) {
      renderFor(status);
      expect(screen.queryByTestId('admin-cancel-match')).toBeNull();
      cleanup();
    }
    signIn('USER');
    renderFor('active');
    expect(screen.queryByTestId('admin-cancel-match')).toBeNull();
    cleanup();
    logout();
    renderFor('active');
    expect(screen.queryByTestId('admin-cancel-match')).toBeNull();
  });

  it('asks first; Back sends nothing, confirming posts the cancel', async () => {
    signIn('ADMIN');
    const calls: { url: string; method?: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, method: init.method });
        return new Response(JSON.stringify({ _id: MATCH_ID, status: 'cancelled' }), { status: 200 });
      }),
    );
    renderFor('active');
    fireEvent.click(screen.getByTestId('admin-cancel-match'));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this match?' });
    expect(dialog.textContent).toContain('no Elo is won or lost');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);

    fireEvent.click(screen.getByTestId('admin-cancel-match'));
    await screen.findByRole('dialog');
    const confirm = screen.getAllByRole('button', { name: 'Cancel match' }).at(-1) as HTMLElement;
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(calls).toEqual([{ url: `/api/admin/matches/${MATCH_ID}/cancel`, method: 'POST' }]),
    );
    await waitFor(() => expect(useAppState.getState().successMessage?.key).toBe('match.adminCancel.done'));
  });

  it('speaks German', async () => {
    signIn('ADMIN');
    await changeLanguage('de');
    try {
      renderFor('mapveto');
      fireEvent.click(screen.getByRole('button', { name: 'Match abbrechen' }));
      expect(await screen.findByRole('dialog', { name: 'Dieses Match abbrechen?' })).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});
