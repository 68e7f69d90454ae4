/**
 * Providers for everything that loads after the first paint: the MUI theme and the TanStack
 * Query cache. The first-paint shell (layout, sidebar, landing hero) is plain React + CSS so the
 * landing route stays under its JavaScript budget; every lazily loaded screen, dialog and
 * sidebar slot is wrapped in these providers (see ./lazyFeature.tsx and ./routes.tsx).
 */
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../features/api/queryClient';
import { theme } from '../ui/theme';

export function FeatureProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
