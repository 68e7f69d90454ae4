import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logout, useSession } from '../../features/session/store';
import { initI18n } from '../../i18n';
import { YourDataSection } from './YourDataSection';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function renderSection() {
  useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'u1', name: 'Ace' } });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <YourDataSection />
    </QueryClientProvider>,
  );
}

describe('settings: your data', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('deletes the account with the password, showing a wrong one in the dialog, then signs out', async () => {
    const calls: { url: string; body: unknown }[] = [];
    let attempt = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        if (url === '/api/privacy') return json({ confirmWith: 'password' });
        if (url === '/api/privacy/delete')
          return attempt++ === 0 ? json({ errors: { msg: 'WRONG_PASSWORD' } }, 400) : json({ ok: true });
        return json({});
      }),
    );
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText(/under the name “Deleted player”/)).toBeTruthy();
    const field = screen.getByLabelText('Current password');
    fireEvent.change(field, { target: { value: 'nope' } });
    const confirm = () => screen.getAllByRole('button', { name: 'Delete my account' }).at(-1)!;
    await waitFor(() => expect(confirm().hasAttribute('disabled')).toBe(false));
    fireEvent.click(confirm());
    expect((await screen.findByTestId('delete-account-error')).textContent).toBe('Wrong password');
    expect(useSession.getState().token).toBe('tok');
    fireEvent.change(field, { target: { value: 'right' } });
    fireEvent.click(confirm());
    await waitFor(() => expect(useSession.getState().token).toBeFalsy());
    expect(calls.filter((c) => c.url === '/api/privacy/delete').map((c) => c.body)).toEqual([
      { password: 'nope' },
      { password: 'right' },
    ]);
  });

  it('asks a Steam-only account to confirm with Steam instead of a password', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ confirmWith: 'steam' })),
    );
    renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('button', { name: 'Confirm with Steam and delete' })).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
  });
});
