import type { MatchPlayer, MatchState } from '@openpug/shared';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { LeaversPanel } from './LeaversPanel';

const p = (id: string): MatchPlayer => ({ _id: id, name: `name-${id}`, avatar: null, elo: 200 });
const team = (ids: string[]) => ({ name: `Team ${ids[0]}`, captain: p(ids[0]), players: ids.map(p) });

function live(extra: Partial<MatchState>): MatchState {
  return {
    _id: 'm1',
    status: 'active',
    createdAt: 0,
    teamOne: team(['c1', 'a', 'b', 'c', 'd']),
    teamTwo: team(['c2', 'e', 'f', 'g', 'h']),
    pool: [],
    turn: null,
    deadline: null,
    mapVeto: { pool: [], bans: [] },
    map: null,
    server: null,
    score: { teamOne: 3, teamTwo: 2 },
    stats: [],
    winner: null,
    cancelReason: null,
    connect: null,
    ...extra,
  };
}

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
