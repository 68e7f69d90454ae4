import { offlineStatus, type UserStatus } from '@openpug/shared';
import { cleanup, render } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import { StatusLine } from './StatusLine';

const base = offlineStatus();
const inGame: UserStatus = {
  ...base,
  online: true,
  teamOne: true,
  match: { ...base.match, active: true, status: 'active', map: 'Train', score: { teamOne: 0, teamTwo: 0 } },
};
const inLobby: UserStatus = { ...inGame, match: { ...inGame.match, status: 'playerveto' } };
const lastSeen: UserStatus = { ...base, lastSeen: Date.now() - 60_000 };

const textOf = (status: UserStatus) => {
  const { container } = render(<StatusLine status={status} />);
  const text = container.textContent;
  cleanup();
  return text;
};

describe('status line texts follow the interface language', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => act(() => changeLanguage('en')));

  it('English shows English words and relative times', () => {
    expect(textOf(inGame)).toBe('In game – Train [0 : 0]');
    expect(textOf(inLobby)).toBe('In lobby: picking players');
    expect(textOf(lastSeen)).toBe('Last seen a minute ago');
  });

  it('German keeps its texts', async () => {
    await act(() => changeLanguage('de'));
    expect(textOf(inGame)).toBe('In Spiel - Train [0 : 0]');
    expect(textOf(inLobby)).toBe('In Lobby: Playerveto');
    expect(textOf(lastSeen)).toBe('Zuletzt gesehen vor einer Minute');
  });
});
