/**
 * The chosen interface language. Changing it switches the translations and remembers the choice
 * under `locale`. Modules that depend on the language follow i18n's `languageChanged` event, so
 * they load only when used: dayjs (features/dates) and the server-data cache (api/queryClient), which
 * drops its data because the server localises some of it.
 */
import type { Locale } from '@openpug/shared';
import { changeLanguage, initI18n } from '../../i18n';
import { LOCALE_STORAGE_KEY, resolveStartupLocale } from './storage';

/** First step of the start-up: decide the locale and initialise the translations with it. */
export async function initLocale(storage: Storage = localStorage): Promise<Locale> {
  const locale = resolveStartupLocale(storage.getItem(LOCALE_STORAGE_KEY), navigator.language);
  storage.setItem(LOCALE_STORAGE_KEY, locale);
  await initI18n(locale);
  document.documentElement.lang = locale;
  return locale;
}

export async function setLocale(locale: Locale, storage: Storage = localStorage): Promise<void> {
  storage.setItem(LOCALE_STORAGE_KEY, locale);
  await changeLanguage(locale);
  document.documentElement.lang = locale;
}
