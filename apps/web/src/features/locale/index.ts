export { LanguageSwitch } from './LanguageSwitch';
export { initLocale, setLocale } from './locale';
export { isLocale, LOCALE_STORAGE_KEY, resolveStartupLocale, storedLocale } from './storage';
