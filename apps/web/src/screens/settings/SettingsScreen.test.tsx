import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logout, useSession } from '../../features/session/store';
import { initI18n } from '../../i18n';
import { SettingsScreen } from './SettingsScreen';

const UID = '0Tt/ugf09K1mNq2rS3tU4vW5xY6=';

describe('settings: the linked voice identity', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('shows the identity shortened, not the raw uid', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ banners: [], sounds: [] }), { status: 200 })),
    );
    useSession.setState({
      token: 'tok',
      isTokenSet: true,
      user: { _id: 'u1', name: 'Ace', teamSpeakId: UID },
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <SettingsScreen />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const row = await screen.findByTestId('linked-voice');
    expect(within(row).getByText('Linked')).toBeTruthy();
    expect(row.textContent).toContain('TeamSpeak identity 0Tt/ugf0…');
    expect(row.textContent).not.toContain(UID);
    expect(within(row).getByTestId('voice-identity').getAttribute('title')).toBe(UID);
  });

  it('names the identity by the nickname it had when linked', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ banners: [], sounds: [] }), { status: 200 })),
    );
    useSession.setState({
      token: 'tok',
      isTokenSet: true,
      user: { _id: 'u1', name: 'Ace', teamSpeakId: UID, teamSpeakName: 'Neo' },
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <SettingsScreen />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const identity = await screen.findByTestId('voice-identity');
    expect(identity.textContent).toBe('Linked to Neo');
    expect(identity.getAttribute('title')).toBe(UID);
  });
});
