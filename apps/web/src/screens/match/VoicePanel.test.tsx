import type { MatchState } from '@openpug/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { liveMatchState } from '../../test/match-state';
import { VoicePanel } from './VoicePanel';

const live = (voice: MatchState['voice']) => liveMatchState({ voice });

const channels = live({
  teamOne: { name: 'openpug #m1 Team c1', members: ['c1', 'b'] },
  teamTwo: { name: 'openpug #m1 Team c2', members: [] },
});

describe('team voice channels in the match room', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => cleanup());

  it('shows nothing without channels', () => {
    render(<VoicePanel state={live(null)} />);
    expect(screen.queryByTestId('voice-panel')).toBeNull();
  });

  it("shows each team's channel and who of its players is in it", () => {
    render(<VoicePanel state={channels} />);
    const one = screen.getByTestId('voice-teamOne');
    expect(within(one).getByTestId('voice-channel-name').textContent).toBe('openpug #m1 Team c1');
    const rows = within(one).getAllByTestId('voice-player');
    expect(rows.map((r) => [r.textContent?.startsWith('name-'), r.dataset.inChannel])).toEqual([
      [true, 'true'],
      [true, 'false'],
      [true, 'true'],
      [true, 'false'],
      [true, 'false'],
    ]);
    expect(within(rows[0]).getByText('In channel')).toBeTruthy();
    expect(within(rows[1]).getByText('Not in channel')).toBeTruthy();
    const two = screen.getByTestId('voice-teamTwo');
    expect(
      within(two)
        .getAllByTestId('voice-player')
        .every((r) => r.dataset.inChannel === 'false'),
    ).toBe(true);
  });

  it('speaks German', async () => {
    await changeLanguage('de');
    render(<VoicePanel state={channels} />);
    expect(screen.getAllByText('Im Kanal')).toHaveLength(2);
    expect(screen.getAllByText('Nicht im Kanal')).toHaveLength(8);
    await changeLanguage('en');
  });
});
