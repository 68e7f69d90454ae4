/**
 * Journey helpers for accessibility: axe-core (WCAG 2.1 A/AA rules) on the page as it is now.
 *
 * - `violations(page)` → serious and critical violations as "rule (impact): html | …" lines, once
 *   the page's animations and transitions have ended
 * - `axeAtWidths(page, label, within?)` → the violations at desktop width and on a 390 px phone,
 *   found by resizing the page in place (no reload), labelled "<label> @<width>: …"; the page gets
 *   its viewport back afterwards. `within` (a CSS selector) checks only that part: a modal dialog
 *   checked under a deadline, while the page behind it is inert and checked by its own journey
 *
 * axe-core is put into the page once per page load (AxeBuilder would inject its ~0.6 MB again
 * for every check): the checks after a resize or a language switch reuse it. The app has no
 * frames, so checking the top document is the whole page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

export const SIZES = {
  desktop: { width: 1400, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

// The axe-core that @axe-core/playwright (the declared dependency) brings.
const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: { html: string }[];
}

export async function violations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  await transitionsEnded(page);
  const found = await page.evaluate(
    async ({ tags, within }) => {
      const axe = (
        window as unknown as { axe: { run: (...a: unknown[]) => Promise<{ violations: AxeViolation[] }> } }
      ).axe;
      const result = await axe.run(within ?? document, { runOnly: { type: 'tag', values: tags } });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) => ({ html: n.html })),
      }));
    },
    { tags: TAGS, within },
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html.slice(0, 160)).join(' | ')}`);
}

/** Lets the layout settle after a resize: two animation frames, then MUI's transitions (≤ 300 ms). */
async function afterResize(page: Page) {
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 350)))),
  );
}

export async function axeAtWidths(page: Page, label: string, within?: string): Promise<string[]> {
  const original = page.viewportSize() ?? SIZES.desktop;
  const found: string[] = [];
  for (const size of [SIZES.desktop, SIZES.phone]) {
    if (page.viewportSize()?.width !== size.width) {
      await page.setViewportSize(size);
      await afterResize(page);
    }
    for (const v of await violations(page, within)) found.push(`${label} @${size.width}: ${v}`);
  }
  if (page.viewportSize()?.width !== original.width) {
    await page.setViewportSize(original);
    await afterResize(page);
  }
  return found;
}

/**
 * Waits for the page's finite animations and CSS transitions (a dialog fading in) to end, at most
 * 1 s; endless ones (a spinner) are left running. axe measures colour contrast with the opacity of
 * the moment: a result dialog checked in its 225 ms fade-in had its button flagged (keyboard
 * journey, a CI run of session 32).
 */
async function transitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
}
