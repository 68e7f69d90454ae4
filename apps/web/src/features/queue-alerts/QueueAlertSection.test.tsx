import type { QueueAlert } from '@openpug/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n';
import { renderWithSession, sessionTestHooks } from '../../test/session';
import { QueueAlertSection } from './QueueAlertSection';
import { browserTimeZone } from './state';

const STORED: QueueAlert = {
  threshold: null,
  channels: [],
  quietHours: null,
  timeZone: 'UTC',
  available: { desktop: true, push: false, whatsapp: false, discord: true },
};

async function renderSection(stored: QueueAlert = STORED, lang: 'en' | 'de' = 'en') {
  await changeLanguage(lang);
  const fetch = renderWithSession(<QueueAlertSection />, {
    answer: (_url, init) =>
      init?.method === 'PUT' ? { ...JSON.parse(String(init.body)), available: stored.available } : stored,
  });
  await screen.findByTestId('queue-alert');
  return fetch;
}

/** Opens an MUI select by its label and picks the option with this text. */
function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}
const box = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('settings: notify me at N/10', () => {
  sessionTestHooks();

  it('offers only linked channels and saves threshold, channels, quiet hours and the browser zone', async () => {
    const fetch = await renderSection();
    // Off: nothing can be ticked yet.
    expect(box('queue-alert-channel-desktop').disabled).toBe(true);
    pick('Notify me at', '7/10');
    expect(box('queue-alert-channel-desktop').disabled).toBe(false);
    expect(box('queue-alert-channel-discord').disabled).toBe(false);
    expect(box('queue-alert-channel-push').disabled).toBe(true);
    expect(box('queue-alert-channel-whatsapp').disabled).toBe(true);
    expect(screen.getByText('Link WhatsApp above and turn its notifications on first.')).toBeTruthy();

    fireEvent.click(box('queue-alert-channel-discord'));
    fireEvent.click(box('queue-alert-channel-desktop'));
    fireEvent.click(box('queue-alert-quiet'));
    pick('Until', '07:00');
    fireEvent.click(screen.getByTestId('queue-alert-save'));

    await vi.waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [url, init] = fetch.mock.calls.find(([, i]) => i?.method === 'PUT') ?? [];
    expect(String(url)).toContain('/api/profile/queue-alert');
    expect(JSON.parse(String(init?.body))).toEqual({
      threshold: 7,
      channels: ['desktop', 'discord'],
      quietHours: { from: 22, to: 7 },
      timeZone: browserTimeZone(),
    });
  }, 20_000); // two MUI selects and four clicks: past the 5 s default on a loaded machine

  it('refuses quiet hours that start and end at the same hour before sending', async () => {
    const fetch = await renderSection({
      ...STORED,
      threshold: 5,
      channels: ['desktop'],
      quietHours: { from: 22, to: 8 },
    });
    pick('Until', '22:00');
    expect(screen.getByTestId('queue-alert-quiet-help').textContent).toBe(
      'Quiet hours need a start and an end hour (0–23) that differ',
    );
    expect((screen.getByTestId('queue-alert-save') as HTMLButtonElement).disabled).toBe(true);
    expect(fetch.mock.calls.filter(([, i]) => i?.method === 'PUT')).toEqual([]);
  });

  it('shows the stored alert, in German too', async () => {
    await renderSection(
      { ...STORED, threshold: 3, channels: ['discord'], quietHours: { from: 23, to: 6 } },
      'de',
    );
    expect(screen.getByRole('combobox', { name: 'Benachrichtige mich bei' }).textContent).toBe('3/10');
    expect(box('queue-alert-channel-discord').checked).toBe(true);
    expect(box('queue-alert-quiet').checked).toBe(true);
    expect(
      screen.getByText('Verknüpfe zuerst oben WhatsApp und schalte seine Benachrichtigungen ein.'),
    ).toBeTruthy();
    expect(screen.getByTestId('queue-alert-quiet-help').textContent).toContain(
      'In diesen Stunden wird nichts gesendet',
    );
  });
});
