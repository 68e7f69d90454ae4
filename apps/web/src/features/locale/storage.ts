import { DEFAULT_LOCALE, LOCALES, type Locale } from '@openpug/shared';

export const LOCALE_STORAGE_KEY = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Start-up rule of docs/contract.md §2: the stored locale, else the browser language's first two letters when
 * we have that language, else English.
 */
export function resolveStartupLocale(stored: string | null, browserLanguage: string | undefined): Locale {
  if (isLocale(stored)) return stored;
  const browser = browserLanguage?.slice(0, 2).toLowerCase();
  return isLocale(browser) ? browser : DEFAULT_LOCALE;
}

/** The stored locale as the API's Accept-Language header sends it (default en). */
export function storedLocale(storage: Storage = localStorage): Locale {
  const stored = storage.getItem(LOCALE_STORAGE_KEY);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}
