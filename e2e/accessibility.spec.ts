/**
 * Accessibility: axe-core (WCAG 2.1 A/AA rules) over every screen, in English and German, at
 * desktop width and on a 390 px phone — no serious or critical violation anywhere. One test per
 * language and width visits the screens in a loop: the public ones signed out, the rest as an
 * admin (who also sees the admin screens).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { storeSession } from './helpers/accounts';
import { signUpAdmin } from './helpers/competition';
import type { Player } from './helpers/social';

const PUBLIC = ['/', '/login', '/signup', '/forgot', '/reset/unknown-link', '/verify/unknown-link', '/about'];
/** Screens anyone may see: checked signed in (the same screen, plus the signed-in layout). */
const BOTH = ['/leaderboard', '/season1', '/match/7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f', '/no-such-page'];
const signedIn = (id: string) => [
  '/home',
  '/search',
  '/chat/global',
  `/user/${id}/matches`,
  `/user/${id}/stats`,
  `/user/${id}/drops`,
  `/user/${id}/highlights`,
  `/user/${id}/friends`,
  '/profile',
  '/settings',
  '/reports',
  '/admin/users',
  '/admin/drops',
  '/admin/audit',
  '/admin/reports',
  '/admin/arena',
  '/admin/calibration',
];

const sizes = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** Serious and critical violations of the page as it is now: "rule: target, …" lines. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html.slice(0, 160)).join(' | ')}`);
}

/** Waits until the screen has drawn: its main landmark and its first heading are there. */
async function settled(page: Page) {
  await page.locator('main, [role="main"]').first().waitFor();
  await page
    .locator('h1, h2')
    .first()
    .waitFor({ timeout: 3_000 })
    .catch(() => undefined);
}

let admin: Player;
test.beforeAll(async ({ request }) => {
  admin = await signUpAdmin(request);
});

for (const locale of ['en', 'de'] as const) {
  for (const [size, viewport] of Object.entries(sizes)) {
    test(`every screen passes axe: ${locale}, ${size}`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const found: string[] = [];
      const check = async (path: string) => {
        await page.goto(path);
        await settled(page);
        for (const v of await violations(page)) found.push(`${path}: ${v}`);
      };
      await page.goto('/about');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      for (const path of PUBLIC) await check(path);
      await storeSession(page, admin.session, locale);
      for (const path of [...signedIn(admin.id), ...BOTH]) await check(path);
      await context.close();
      expect(found).toEqual([]);
    });
  }
}
