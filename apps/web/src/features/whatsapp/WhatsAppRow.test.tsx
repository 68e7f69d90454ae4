import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { logout, useSession } from '../session/store';
import { WhatsAppRow } from './WhatsAppRow';

const PHONE = '+491701234567';

function renderRow(status: object) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    String(input).includes('/profile/whatsAppStatus')
      ? new Response(JSON.stringify(status), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response('{}', { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  useSession.setState({
    token: 'tok',
    isTokenSet: true,
    user: { _id: 'u1', name: 'Ace', phone: PHONE, whatsAppEnabled: true },
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <WhatsAppRow />
    </QueryClientProvider>,
  );
  return fetch;
}

const paused = { linked: true, enabled: true, paused: true, failure: { errorCode: 131047, failedAt: 1 } };

describe('settings: a WhatsApp number WhatsApp could not reach', () => {
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('says so in words (en) and offers to link the number again', async () => {
    await initI18n('en');
    renderRow(paused);
    const notice = await screen.findByTestId('whatsapp-unreachable');
    expect(notice.textContent).toContain(`We could not reach your WhatsApp number ${PHONE}`);
    expect(notice.textContent).toContain('paused until you link the number again');
    expect(notice.textContent).not.toContain('131047');
    fireEvent.click(within(notice).getByText('Link again'));
    const input = screen.getByTestId('whatsapp-phone') as HTMLInputElement;
    expect(input.value).toBe(PHONE);
  });

  it('says so in German', async () => {
    await initI18n('de');
    await changeLanguage('de');
    renderRow(paused);
    const notice = await screen.findByTestId('whatsapp-unreachable');
    expect(notice.textContent).toContain(`Wir konnten deine WhatsApp-Nummer ${PHONE} nicht erreichen`);
    expect(within(notice).getByText('Erneut verknüpfen')).toBeTruthy();
    await changeLanguage('en');
  });

  it('shows nothing while the number is reachable', async () => {
    await initI18n('en');
    const fetch = renderRow({ linked: true, enabled: true, paused: false, failure: null });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('whatsapp-unreachable')).toBeNull();
    expect(screen.getByTestId('linked-whatsapp').textContent).toContain(PHONE);
  });
});
