import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setErrorMessage, setLoading, useAppState } from '../app-state/store';
import { logout, saveSession, useSession } from '../session/store';
import { ApiError, api } from './client';

type Call = { url: string; init: RequestInit };
let calls: Call[];

function answer(status: number, body?: unknown) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
}

const header = (name: string) => (calls[0].init.headers as Record<string, string>)[name];

describe('api wrapper', () => {
  beforeEach(() => {
    localStorage.clear();
    logout();
    setErrorMessage(null);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('calls /api with JSON, the stored locale and the bearer token', async () => {
    localStorage.setItem('locale', 'de');
    saveSession({ token: 'tok', user: { _id: 'u1' } });
    answer(200, { ok: true });
    await expect(api.patch('/profile', { name: 'x' })).resolves.toEqual({ ok: true });
    expect(calls[0].url).toBe('/api/profile');
    expect(calls[0].init.method).toBe('PATCH');
    expect(calls[0].init.body).toBe('{"name":"x"}');
    expect(header('Accept-Language')).toBe('de');
    expect(header('Authorization')).toBe('Bearer tok');
    expect(header('Content-Type')).toBe('application/json');
  });

  it('sends Accept-Language en when no locale is stored', async () => {
    answer(200, {});
    await api.get('/users/ranking', { query: { page: 1, limit: 10, filter: undefined } });
    expect(calls[0].url).toBe('/api/users/ranking?page=1&limit=10');
    expect(header('Accept-Language')).toBe('en');
  });

  it('never sends the token to login, forgot, register or reset', async () => {
    saveSession({ token: 'tok' });
    for (const path of ['/login', '/forgot', '/register', '/reset', '/login/']) {
      answer(200, {});
      await api.post(path, {});
      expect(header('Authorization')).toBeUndefined();
    }
    answer(200, {});
    await api.post('/verify', { id: 'x' });
    expect(header('Authorization')).toBe('Bearer tok');
  });

  it('accepts the status the caller expects', async () => {
    answer(201, { user: {} });
    await expect(api.post('/register', {}, { expect: 201 })).resolves.toEqual({ user: {} });
    answer(201, {});
    await expect(api.post('/drops/', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('shows the error key of a refused call, clears loading and rejects', async () => {
    setLoading(true);
    answer(404, { errors: { msg: 'NOT_FOUND' } });
    const failure = await api.get('/friends').catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 404, key: 'NOT_FOUND' });
    expect(useAppState.getState()).toMatchObject({
      showLoading: false,
      showErrorMessage: true,
      errorMessage: ['NOT_FOUND'],
    });
  });

  it('falls back to the body text when there is no error key', async () => {
    answer(500, 'Upstream exploded');
    await api.get('/x').catch(() => undefined);
    expect(useAppState.getState().errorMessage).toEqual(['Upstream exploded']);
  });

  it('logs out on 401 without showing an error', async () => {
    saveSession({ token: 'tok', user: { _id: 'u1' } });
    answer(401, { errors: { msg: 'UNAUTHORIZED' } });
    await expect(api.get('/profile')).rejects.toMatchObject({ status: 401 });
    expect(useSession.getState().isTokenSet).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
    expect(useAppState.getState().showErrorMessage).toBe(false);
  });

  it('reports SERVER_TIMEOUT_CONNECTION_ERROR when no response arrives', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/friends')).rejects.toMatchObject({
      status: 0,
      key: 'SERVER_TIMEOUT_CONNECTION_ERROR',
    });
    expect(useAppState.getState().errorMessage).toEqual(['SERVER_TIMEOUT_CONNECTION_ERROR']);
  });

  it('stays quiet for silent calls', async () => {
    answer(422, { errors: { msg: 'IS_EMPTY' } });
    await expect(api.patch('/profile', {}, { silent: true })).rejects.toMatchObject({ key: 'IS_EMPTY' });
    expect(useAppState.getState().showErrorMessage).toBe(false);
  });
});
