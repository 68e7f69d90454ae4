import type { ArenaList } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** How often the list asks again (the server polls the arena servers every ARENA_POLL_MS). */
export const ARENA_REFRESH_MS = 15_000;

/** GET /api/arena: the arena servers with their player counts, kept fresh while shown. */
export function useArenaServers(enabled = true) {
  return useQuery({
    queryKey: ['arena'],
    queryFn: ({ signal }) => api.get<ArenaList>('/arena', { signal, silent: true }),
    refetchInterval: ARENA_REFRESH_MS,
    enabled,
  });
}
