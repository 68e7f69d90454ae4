import type { SeasonTexts } from '@openpug/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n';
import { renderWithSession, sessionTestHooks } from '../../test/session';
import { SeasonScreen } from './SeasonScreen';

const NO_TEXTS: SeasonTexts = { title: '', description: '', prizes: '' };
const season = (texts: SeasonTexts) => ({
  _id: 'season1',
  name: 'Season 1',
  startsAt: '2026-09-01T00:00:00.000Z',
  endsAt: '2026-12-01T00:00:00.000Z',
  frozen: false,
  texts,
});
const knife = {
  _id: 'd1',
  name: 'Karambit',
  image: 'knife',
  rarity: 'legendary',
  amount: 1,
  awarded: 0,
  unlocksBanner: null,
  unlocksSound: null,
  createdAt: '2026-09-01T00:00:00.000Z',
};

function show(texts: SeasonTexts, prizes: unknown[], role: 'USER' | 'ADMIN' = 'USER') {
  // The server as far as the page sees it: a PUT changes what the next GET answers.
  let current = season(texts);
  const answer = (_url: string, init?: RequestInit) => {
    if (init?.method === 'PUT') {
      const { title, description, prizes: prizesText, startsAt, endsAt } = JSON.parse(String(init.body));
      current = { ...current, startsAt, endsAt, texts: { title, description, prizes: prizesText } };
      return current;
    }
    return { season: current, standings: [], prizes };
  };
  return renderWithSession(<SeasonScreen />, { answer, user: { role }, router: true });
}

describe('the season page', () => {
  sessionTestHooks();

  it('without details shows the drop catalogue as the prizes, and no "announced soon"', async () => {
    show(NO_TEXTS, [knife]);
    expect(await screen.findByText('Karambit')).toBeTruthy();
    expect(screen.queryByText(/announced soon/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit season' })).toBeNull();
  });

  it('with nothing at all shows no prizes section rather than a placeholder', async () => {
    show(NO_TEXTS, []);
    await screen.findByTestId('season-dates');
    expect(screen.queryByText(/announced soon/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Prizes' })).toBeNull();
  });

  it("shows the admins' title, description and prizes of the language", async () => {
    show({ title: 'Autumn league', description: 'Ten weeks of pugs.', prizes: 'A knife for the winner' }, [
      knife,
    ]);
    expect(await screen.findByRole('heading', { name: 'Autumn league' })).toBeTruthy();
    expect(screen.getByTestId('season-description').textContent).toBe('Ten weeks of pugs.');
    expect(screen.getByTestId('season-prizes').textContent).toBe('A knife for the winner');
  });

  it('an admin edits the dates and the texts of the current language', async () => {
    await changeLanguage('de');
    const fetch = show(NO_TEXTS, [], 'ADMIN');
    fireEvent.click(await screen.findByRole('button', { name: 'Saison bearbeiten' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect((dialog.getByLabelText('Beginn') as HTMLInputElement).value).toMatch(/^2026-0(8-31|9-01)$/);
    fireEvent.change(dialog.getByLabelText('Ende'), { target: { value: '2026-12-24' } });
    fireEvent.change(dialog.getByLabelText('Titel'), { target: { value: 'Herbstliga' } });
    fireEvent.change(dialog.getByLabelText('Preise'), { target: { value: 'Ein Messer' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByRole('heading', { name: 'Herbstliga' })).toBeTruthy();
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toContain('/api/seasons/season1');
    const body = JSON.parse(String(put?.[1]?.body));
    expect(body).toMatchObject({ locale: 'de', title: 'Herbstliga', description: '', prizes: 'Ein Messer' });
    expect(new Date(body.endsAt).getDate()).toBe(24);
    expect(Date.parse(body.startsAt)).toBeLessThan(Date.parse(body.endsAt));
  });
});
