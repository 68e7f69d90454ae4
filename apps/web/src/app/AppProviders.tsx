import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';

/**
 * Providers of the first paint: only the translations. The MUI theme and the query cache wrap
 * the lazily loaded parts instead (FeatureProviders), keeping them out of the first load.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}
