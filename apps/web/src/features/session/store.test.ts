import { beforeEach, describe, expect, it } from 'vitest';
import {
  endRevokedSession,
  logout,
  restoreSession,
  saveSession,
  updateSessionUser,
  useSession,
} from './store';

describe('session', () => {
  beforeEach(() => {
    localStorage.clear();
    logout();
  });

  it('auto login restores token, user, matrix and expiry from storage', () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify({ _id: 'u1', name: 'Ace' }));
    localStorage.setItem('matrix', JSON.stringify({ user_id: '@u1:openpug' }));
    localStorage.setItem('expiry', '1700000000000');
    expect(restoreSession()).toBe(true);
    expect(useSession.getState()).toEqual({
      token: 'tok',
      isTokenSet: true,
      user: { _id: 'u1', name: 'Ace' },
      matrix: { user_id: '@u1:openpug' },
      expiry: '1700000000000',
    });
  });

  it('stays logged out without a stored token, and tolerates a broken user entry', () => {
    localStorage.setItem('user', '{broken');
    expect(restoreSession()).toBe(false);
    expect(useSession.getState().isTokenSet).toBe(false);
    localStorage.setItem('token', 'tok');
    expect(restoreSession()).toBe(true);
    expect(useSession.getState().user).toBeNull();
  });

  it('saves a login to storage and merges user updates', () => {
    saveSession({ token: 'tok', user: { _id: 'u1', unseenDropsCount: 2 }, matrix: { a: 1 }, expiry: '99' });
    updateSessionUser({ unseenDropsCount: 0 });
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual({ _id: 'u1', unseenDropsCount: 0 });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('expiry')).toBe('99');
  });

  it('logout removes token, expiry, user and matrix', () => {
    saveSession({ token: 'tok', user: { _id: 'u1' }, matrix: { a: 1 }, expiry: '99' });
    localStorage.setItem('locale', 'de');
    logout();
    for (const key of ['token', 'expiry', 'user', 'matrix']) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('locale')).toBe('de');
    expect(useSession.getState()).toMatchObject({ token: null, isTokenSet: false, user: null });
  });

  it('a refused token signs out only if it is still the one held; a fresher sign-in of another tab is taken over', () => {
    saveSession({ token: 'new' });
    endRevokedSession('old'); // refused for the token a password change replaced
    expect(useSession.getState().token).toBe('new');
    endRevokedSession('new');
    expect(useSession.getState().isTokenSet).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();

    saveSession({ token: 'tab-a' });
    localStorage.setItem('token', 'tab-b'); // another tab of this browser signed in afresh
    endRevokedSession('tab-a');
    expect(useSession.getState().token).toBe('tab-b');
  });
});
