import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n';
import { renderWithSession, sessionTestHooks } from '../../test/session';
import { AdminDropsScreen } from './AdminDropsScreen';

const page = { docs: [], totalDocs: 0, limit: 10, page: 1, totalPages: 0 };

/** The helper text MUI ties to a field through aria-describedby. */
const helperOf = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '';

async function renderScreen(lang: 'en' | 'de') {
  await changeLanguage(lang);
  return renderWithSession(<AdminDropsScreen />, {
    answer: (url) =>
      url.includes('/engine')
        ? { enabled: true, intervalMs: 600_000, nextChance: 0.1, nextRollAt: null }
        : page,
    user: { _id: 'a1', name: 'Root', role: 'ADMIN' },
    router: true,
  });
}

async function openCreateDialog(lang: 'en' | 'de') {
  const fetch = await renderScreen(lang);
  fireEvent.click(await screen.findByRole('button', { name: lang === 'en' ? 'New drop' : 'Neuer Drop' }));
  return { dialog: within(await screen.findByRole('dialog')), fetch };
}

describe('admin drops: the new-drop form', () => {
  sessionTestHooks();

  it('says what is wrong at the field that is wrong, and sends nothing', async () => {
    const { dialog, fetch } = await openCreateDialog('en');
    const calls = fetch.mock.calls.length;
    const name = dialog.getByLabelText('Name');
    const amount = dialog.getByLabelText('Amount');
    fireEvent.change(amount, { target: { value: '0' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(helperOf(name)).toBe('Enter a name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(helperOf(amount)).toBe('Amount must be a whole number from 1 to 100,000');
    expect(amount.getAttribute('aria-invalid')).toBe('true');

    // Fixing the name clears its message; the amount's stays where it is.
    fireEvent.change(name, { target: { value: 'Knife crate' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(name.getAttribute('aria-invalid')).toBe('false');
    expect(helperOf(name)).not.toContain('name');
    expect(helperOf(amount)).toBe('Amount must be a whole number from 1 to 100,000');
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it('the engine interval says its range when it is out of it', async () => {
    await renderScreen('en');
    const interval = await screen.findByLabelText('Interval (minutes)');
    fireEvent.change(interval, { target: { value: '20000' } });
    expect(helperOf(interval)).toBe('From 1 second to 7 days');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(interval, { target: { value: '10' } });
    expect(helperOf(interval)).toBe('');
  });

  it('in German too, and a name over the limit states it', async () => {
    const { dialog } = await openCreateDialog('de');
    const name = dialog.getByLabelText('Name');
    fireEvent.click(dialog.getByRole('button', { name: 'Speichern' }));
    expect(helperOf(name)).toBe('Gib einen Namen ein');
    fireEvent.change(name, { target: { value: 'x'.repeat(101) } });
    fireEvent.click(dialog.getByRole('button', { name: 'Speichern' }));
    expect(helperOf(name)).toBe('Höchstens 100 Zeichen');
    fireEvent.change(dialog.getByLabelText('Anzahl'), { target: { value: '1.5' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Speichern' }));
    expect(helperOf(dialog.getByLabelText('Anzahl'))).toBe(
      'Die Anzahl muss eine ganze Zahl von 1 bis 100.000 sein',
    );
  });
});
