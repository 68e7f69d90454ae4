import type { Calibration, QueueEta, StartsHeatmap } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** GET /api/queue/eta for the queue count shown (a new count asks again). */
export function useQueueEta(count: number, enabled: boolean) {
  return useQuery({
    queryKey: ['queue', 'eta', count],
    queryFn: ({ signal }) => api.get<QueueEta>('/queue/eta', { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
}

/** The browser's IANA time zone (the heatmap is drawn in it). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** GET /api/queue/heatmap?tz=: match starts of the last 4 weeks by weekday and hour. */
export function useStartsHeatmap(tz: string) {
  return useQuery({
    queryKey: ['queue', 'heatmap', tz],
    queryFn: ({ signal }) =>
      api.get<StartsHeatmap>('/queue/heatmap', { signal, silent: true, query: { tz } }),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/admin/calibration. */
export function useCalibration() {
  return useQuery({
    queryKey: ['admin', 'calibration'],
    queryFn: ({ signal }) => api.get<Calibration>('/admin/calibration', { signal }),
  });
}
