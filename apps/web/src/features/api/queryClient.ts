import { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../i18n';

/**
 * The one TanStack Query cache for server data. Errors are already reported by the api wrapper,
 * so queries do not retry into a second error dialog.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

// The server localises some data: a language change drops the cache (docs/contract.md §4 Locale).
i18n.on('languageChanged', () => void queryClient.resetQueries());
