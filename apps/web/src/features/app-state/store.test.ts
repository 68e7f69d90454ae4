import { DEFAULT_SUCCESS_TIMEOUT_MS } from '@openpug/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setErrorMessage, setLoading, setSuccessMessage, useAppState } from './store';

const success = () => useAppState.getState().successMessage;

describe('success message', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    setSuccessMessage(null);
    vi.useRealTimers();
  });

  it('disappears after 6000 ms by default', () => {
    setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY' });
    expect(DEFAULT_SUCCESS_TIMEOUT_MS).toBe(6000);
    expect(success()).toEqual({ key: 'common.SAVED_SUCCESSFULLY', timeout: 6000 });
    vi.advanceTimersByTime(5999);
    expect(success()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(success()).toBeNull();
  });

  it('honours a custom timeout', () => {
    setSuccessMessage({ key: 'X', params: { email: 'a@b.c' }, timeout: 1000 });
    expect(success()?.params).toEqual({ email: 'a@b.c' });
    vi.advanceTimersByTime(1000);
    expect(success()).toBeNull();
  });

  it('stays with timeout 0', () => {
    setSuccessMessage({ key: 'X', timeout: 0 });
    vi.advanceTimersByTime(60 * 60_000);
    expect(success()).toEqual({ key: 'X', timeout: 0 });
  });

  it('is cleared by null, and the old timer does not fire later', () => {
    setSuccessMessage({ key: 'X' });
    setSuccessMessage(null);
    expect(success()).toBeNull();
    setSuccessMessage({ key: 'Y', timeout: 0 });
    vi.advanceTimersByTime(10_000);
    expect(success()?.key).toBe('Y');
  });

  it('gives a replacing message its own full timeout', () => {
    setSuccessMessage({ key: 'X' });
    vi.advanceTimersByTime(5000);
    setSuccessMessage({ key: 'Y' });
    vi.advanceTimersByTime(5000);
    expect(success()?.key).toBe('Y');
    vi.advanceTimersByTime(1000);
    expect(success()).toBeNull();
  });
});

describe('error list and loading', () => {
  it('collects errors until cleared with null', () => {
    setErrorMessage('BAD_TOKEN');
    setErrorMessage('NOT_FOUND');
    expect(useAppState.getState()).toMatchObject({
      showErrorMessage: true,
      errorMessage: ['BAD_TOKEN', 'NOT_FOUND'],
    });
    setErrorMessage(null);
    expect(useAppState.getState()).toMatchObject({ showErrorMessage: false, errorMessage: [] });
  });

  it('starts without the loading dialog', () => {
    expect(useAppState.getState().showLoading).toBe(false);
    setLoading(true);
    expect(useAppState.getState().showLoading).toBe(true);
    setLoading(false);
  });
});
