import { describe, expect, it } from 'vitest';
import { runStartup } from './startup';

describe('start-up', () => {
  it('sets the locale first, then logs in automatically, then checks the version', async () => {
    const order: string[] = [];
    let localeDone: () => void = () => undefined;
    const run = runStartup({
      initLocale: () =>
        new Promise<void>((resolve) => {
          order.push('locale');
          localeDone = resolve;
        }),
      autoLogin: () => order.push('autoLogin'),
      checkVersion: async () => {
        order.push('version');
      },
    });
    // Nothing else may start while the locale is still loading.
    expect(order).toEqual(['locale']);
    localeDone();
    await run;
    expect(order).toEqual(['locale', 'autoLogin', 'version']);
  });
});
