/**
 * App-wide UI state that is not server data: the loading dialog, the persistent error list and the
 * transient success message. Non-React code (the api wrapper, the router guard) uses the exported
 * functions; components read the store with `useAppState`.
 */
import { DEFAULT_SUCCESS_TIMEOUT_MS } from '@openpug/shared';
import { create } from 'zustand';

export interface SuccessMessage {
  /** i18n key, e.g. `common.SAVED_SUCCESSFULLY`. */
  key: string;
  params?: Record<string, unknown>;
  /** Milliseconds until it disappears; 0 keeps it until replaced or cleared. */
  timeout: number;
}

export interface AppState {
  showLoading: boolean;
  showErrorMessage: boolean;
  /** i18n keys (usually error keys of docs/contract.md §8), oldest first. */
  errorMessage: string[];
  successMessage: SuccessMessage | null;
}

export const useAppState = create<AppState>(() => ({
  showLoading: false,
  showErrorMessage: false,
  errorMessage: [],
  successMessage: null,
}));

export function setLoading(showLoading: boolean): void {
  useAppState.setState({ showLoading });
}

/** Adds a message to the error list dialog; `null` hides the dialog and empties the list. */
export function setErrorMessage(key: string | null): void {
  if (key === null) {
    useAppState.setState({ showErrorMessage: false, errorMessage: [] });
    return;
  }
  useAppState.setState((s) => ({ showErrorMessage: true, errorMessage: [...s.errorMessage, key] }));
}

// The pending auto-hide belongs to the message currently shown; a new message or a clear cancels it.
let successTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Shows a success message for `timeout` ms (default 6000; 0 = until replaced or cleared).
 * `null` clears it.
 */
export function setSuccessMessage(
  message: { key: string; params?: Record<string, unknown>; timeout?: number } | null,
): void {
  clearTimeout(successTimer);
  successTimer = undefined;
  if (message === null) {
    useAppState.setState({ successMessage: null });
    return;
  }
  const shown: SuccessMessage = { ...message, timeout: message.timeout ?? DEFAULT_SUCCESS_TIMEOUT_MS };
  useAppState.setState({ successMessage: shown });
  if (shown.timeout > 0) {
    successTimer = setTimeout(() => {
      successTimer = undefined;
      useAppState.setState({ successMessage: null });
    }, shown.timeout);
  }
}
