import { ERROR_TEXTS } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import { buildTranslation } from './index';

function values(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [value];
  return Object.values(value).flatMap(values);
}

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('translations', () => {
  it('en and de have the same keys, none empty', () => {
    expect(keys(de).sort()).toEqual(keys(en).sort());
    for (const text of [...values(en), ...values(de)]) {
      expect(typeof text).toBe('string');
      expect((text as string).trim()).not.toBe('');
    }
  });

  it('German says Warteschlange, never the English "Queue"', () => {
    for (const text of values(de)) expect(text as string).not.toMatch(/\bQueue/);
  });

  it('the English status lines carry no German words', () => {
    for (const text of values(en.friends.status))
      expect(text as string).not.toMatch(/\b(Spiel|Playerveto|Mapveto)\b/);
  });

  it('take error texts from the shared catalogue instead of copying them', () => {
    for (const key of Object.keys(ERROR_TEXTS.en)) {
      expect(keys(en)).not.toContain(key);
    }
    expect(buildTranslation('en', en)['404']).toBe('404 Page not found');
    expect(buildTranslation('de', de).validation.confirmed).toBe('Passwörter müssen übereinstimmen');
  });
});
