export type { AppState, SuccessMessage } from './store';
export { setErrorMessage, setLoading, setSuccessMessage, useAppState } from './store';
