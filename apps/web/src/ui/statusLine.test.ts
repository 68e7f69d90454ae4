import { offlineStatus, type UserStatus } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import { relativeTime, scoreText, statusLineOf } from './statusLine';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const status = (
  patch: Partial<Omit<UserStatus, 'match'>> & { match?: Partial<UserStatus['match']> } = {},
): UserStatus => {
  const base = offlineStatus();
  return { ...base, ...patch, match: { ...base.match, ...patch.match } };
};

describe('status line priority (docs/contract.md §2)', () => {
  const everything = status({
    online: true,
    inArena: true,
    inQueue: true,
    lastSeen: NOW - 1000,
    teamOne: true,
    match: { active: true, status: 'active', map: 'de_mirage', score: { teamOne: 3, teamTwo: 1 } },
  });
  it('arena beats everything, then queue, then the lobby phases, then the game, then online', () => {
    expect(statusLineOf(everything, NOW).kind).toBe('inArena');
    expect(statusLineOf({ ...everything, inArena: false }, NOW).kind).toBe('inQueue');
    const inMatch = { ...everything, inArena: false, inQueue: false };
    expect(statusLineOf({ ...inMatch, match: { ...inMatch.match, status: 'playerveto' } }, NOW).kind).toBe(
      'playerveto',
    );
    expect(statusLineOf({ ...inMatch, match: { ...inMatch.match, status: 'mapveto' } }, NOW).kind).toBe(
      'mapveto',
    );
    expect(statusLineOf(inMatch, NOW)).toMatchObject({
      kind: 'inGame',
      params: { map: 'de_mirage', score: '3 : 1' },
    });
    expect(statusLineOf({ ...inMatch, match: { ...inMatch.match, active: false } }, NOW).kind).toBe('online');
  });
  it('offline with a last-seen time shows it in the interface language; never seen shows offline', () => {
    expect(statusLineOf(status({ lastSeen: NOW - 5 * 60_000 }), NOW, 'en')).toMatchObject({
      kind: 'lastSeen',
      params: { time: '5 minutes ago' },
    });
    expect(statusLineOf(status({ lastSeen: NOW - 5 * 60_000 }), NOW, 'de')).toMatchObject({
      kind: 'lastSeen',
      params: { time: 'vor 5 Minuten' },
    });
    expect(statusLineOf(status(), NOW).kind).toBe('offline');
  });
});

describe('formatting', () => {
  it('orders the score own : opponent by the user team', () => {
    const s = status({ match: { score: { teamOne: 7, teamTwo: 10 } } });
    expect(scoreText({ ...s, teamOne: true })).toBe('7 : 10');
    expect(scoreText({ ...s, teamOne: false })).toBe('10 : 7');
  });
  it('uses relative times in the interface language', () => {
    expect(relativeTime(NOW - 10_000, NOW, 'de')).toBe('vor ein paar Sekunden');
    expect(relativeTime(NOW - 3 * 3600_000, NOW, 'de')).toBe('vor 3 Stunden');
    expect(relativeTime(NOW - 2 * 86400_000, NOW, 'de')).toBe('vor 2 Tagen');
    expect(relativeTime(NOW - 60_000, NOW, 'en')).toBe('a minute ago');
    expect(relativeTime(NOW - 3 * 3600_000, NOW, 'en')).toBe('3 hours ago');
    // A clock slightly behind the server never says "in ...".
    expect(relativeTime(NOW + 5_000, NOW, 'de')).toBe('vor ein paar Sekunden');
    expect(relativeTime(NOW + 5_000, NOW, 'en')).toBe('a few seconds ago');
  });
});
