import { describe, expect, it } from 'vitest';
import { resolveStartupLocale, storedLocale } from './storage';

describe('start-up locale (docs/contract.md §2)', () => {
  it('uses the stored locale first', () => {
    expect(resolveStartupLocale('de', 'en-US')).toBe('de');
    expect(resolveStartupLocale('en', 'de-DE')).toBe('en');
  });

  it('falls back to the first two letters of the browser language when we have it', () => {
    expect(resolveStartupLocale(null, 'de-AT')).toBe('de');
    expect(resolveStartupLocale(null, 'de')).toBe('de');
    expect(resolveStartupLocale(null, 'en-GB')).toBe('en');
    expect(resolveStartupLocale(null, 'DE-de')).toBe('de');
  });

  it('ignores a stored value that is not a locale', () => {
    expect(resolveStartupLocale('fr', 'de-DE')).toBe('de');
    expect(resolveStartupLocale('', 'de-DE')).toBe('de');
  });

  it('ends with English', () => {
    expect(resolveStartupLocale(null, 'fr-FR')).toBe('en');
    expect(resolveStartupLocale(null, undefined)).toBe('en');
    expect(resolveStartupLocale('xx', 'pt-BR')).toBe('en');
  });

  it('sends the stored locale as Accept-Language, default en', () => {
    localStorage.clear();
    expect(storedLocale()).toBe('en');
    localStorage.setItem('locale', 'de');
    expect(storedLocale()).toBe('de');
    localStorage.setItem('locale', 'xx');
    expect(storedLocale()).toBe('en');
  });
});
