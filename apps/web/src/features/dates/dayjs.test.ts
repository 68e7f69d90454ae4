import { describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { dayjs } from './dayjs';

describe('dayjs for screens', () => {
  it('formats relative times in the interface language', async () => {
    await initI18n('en');
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    expect(dayjs(tenMinutesAgo).fromNow()).toBe('10 minutes ago');
    await changeLanguage('de');
    expect(dayjs(tenMinutesAgo).fromNow()).toBe('vor 10 Minuten');
  });
});
