import type { MatchState } from '@openpug/shared';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { liveMatchState } from '../../test/match-state';
import { LeaversPanel } from './LeaversPanel';

const live = (extra: Partial<MatchState>) => liveMatchState({ score: { teamOne: 3, teamTwo: 2 }, ...extra });

describe('leavers in the match room', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => cleanup());

  it('shows nothing without leavers', () => {
    render(<LeaversPanel state={live({ leavers: [] })} myId="c1" onRequest={vi.fn()} />);
    expect(screen.queryByTestId('leavers-panel')).toBeNull();
  });

  it("only the leaver's own captain gets Request substitute; it asks for that player", async () => {
    const onRequest = vi.fn(async () => undefined);
    render(<LeaversPanel state={live({ leavers: ['b'] })} myId="c1" onRequest={onRequest} />);
    const row = screen.getByTestId('leaver');
    expect(row.textContent).toContain('name-b');
    fireEvent.click(within(row).getByRole('button', { name: 'Request substitute' }));
    expect(onRequest).toHaveBeenCalledWith('b');
    cleanup();
    for (const me of ['c2', 'a', null]) {
      render(<LeaversPanel state={live({ leavers: ['b'] })} myId={me} onRequest={onRequest} />);
      expect(screen.getByTestId('leaver')).toBeTruthy();
      expect(screen.queryByTestId('request-substitute')).toBeNull();
      cleanup();
    }
  });

  it('while the offer runs the row says so with its countdown, in German too', async () => {
    const state = live({ leavers: ['b'], substituteOffer: { deadline: Date.now() + 90_000, slots: ['b'] } });
    render(<LeaversPanel state={state} myId="c1" onRequest={vi.fn()} />);
    expect(screen.queryByTestId('request-substitute')).toBeNull();
    expect(screen.getByTestId('substitute-searching').textContent).toMatch(
      /Looking for a substitute · 01:[23]\d/,
    );
    cleanup();
    await changeLanguage('de');
    render(<LeaversPanel state={state} myId="c1" onRequest={vi.fn()} />);
    expect(screen.getByTestId('leavers-panel').textContent).toContain('Ein Spieler hat das Match verlassen');
    expect(screen.getByTestId('substitute-searching').textContent).toContain('Ersatz wird gesucht');
    await changeLanguage('en');
  });
});
