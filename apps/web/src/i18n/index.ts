/**
 * The i18next instance. The app's own texts live in en.json / de.json and are loaded on demand,
 * one language at a time, so the first load carries only the language in use. The error
 * catalogue (docs/contract.md §8) and validation messages (docs/contract.md §5) come from @openpug/shared and are merged
 * in here: error keys at the top level (the server sends bare keys such as `BAD_TOKEN`),
 * validation messages under `validation.`.
 */
import { DEFAULT_LOCALE, ERROR_TEXTS, type Locale, VALIDATION_TEXTS } from '@openpug/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from './en.json';

export type AppTexts = typeof en;

const APP_TEXTS: Record<Locale, () => Promise<{ default: AppTexts }>> = {
  en: () => import('./en.json'),
  de: () => import('./de.json'),
};

/** Everything one language needs: shared catalogues plus the app's own texts. */
export function buildTranslation(locale: Locale, texts: AppTexts) {
  return { ...ERROR_TEXTS[locale], ...texts, validation: VALIDATION_TEXTS[locale] };
}

export const i18n = i18next.createInstance();

/** Makes sure a language's texts are present before switching to it. */
export async function loadLanguage(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  const texts = (await APP_TEXTS[locale]()).default;
  i18n.addResourceBundle(locale, 'translation', buildTranslation(locale, texts));
}

export async function initI18n(locale: Locale): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: {},
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      // The default language is loaded only when it is in use; en.json and de.json have the
      // same keys (a unit test checks), so a missing fallback bundle never shows.
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await changeLanguage(locale);
}

export async function changeLanguage(locale: Locale): Promise<void> {
  await loadLanguage(locale);
  await i18n.changeLanguage(locale);
}
