import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { initLocale, setLocale } from './locale';

describe('locale at start-up and on change', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('starts in the browser language when nothing is stored, and remembers it', async () => {
    localStorage.clear();
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-DE');
    expect(await initLocale()).toBe('de');
    expect(i18n.language).toBe('de');
    expect(localStorage.getItem('locale')).toBe('de');
    expect(i18n.t('nav.settings')).toBe('Einstellungen');
    expect(i18n.t('404')).toBe('404 Seite nicht gefunden');
  });

  it('prefers the stored locale over the browser language', async () => {
    localStorage.setItem('locale', 'en');
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-DE');
    expect(await initLocale()).toBe('en');
    expect(i18n.t('404')).toBe('404 Page not found');
  });

  it('switches the texts, the page language and the stored value', async () => {
    await initLocale();
    await setLocale('de');
    expect(i18n.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('locale')).toBe('de');
    expect(i18n.t('validation.required')).toBe('Dieses Feld ist erforderlich');
    await setLocale('en');
    expect(i18n.t('nav.settings')).toBe('Settings');
  });

  it('moves dayjs along with the language', async () => {
    const { dayjs } = await import('../dates');
    await setLocale('de');
    expect(dayjs.locale()).toBe('de');
    await setLocale('en');
    expect(dayjs.locale()).toBe('en');
  });
});
