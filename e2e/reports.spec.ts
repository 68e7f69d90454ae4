/**
 * Player reports in the browser: a player reports another from the player page; the admin finds it
 * in the reports queue with both players' context and warns the reported player; the reporter's
 * "My reports" says action was taken and the warned player sees the warning. With SHOTS_DIR set,
 * the report dialog and the admin reports page are photographed in English and German at 390 px
 * and desktop width.
 */
import { expect, type Page, test } from '@playwright/test';
import { signUpAdmin } from './helpers/competition';
import { openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shots = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };

async function openReportDialog(page: Page, userId: string) {
  await page.goto(`/user/${userId}/matches`);
  await page.getByTestId('user-header').getByTestId('report-button').click();
  const dialog = page.getByTestId('report-dialog');
  await expect(dialog.getByRole('radio').first()).toBeVisible();
  return dialog;
}

test('a player reports another; the admin warns them; both see the outcome', async ({ browser, request }) => {
  test.setTimeout(allow(shots ? 180_000 : 60_000));
  const admin = await signUpAdmin(request);
  const reporter = await signUpPlayer(request, 'Reporter');
  const reported = await signUpPlayer(request, 'Rude');

  const { page } = await openAs(browser, reporter);
  const dialog = await openReportDialog(page, reported.id);
  await expect(dialog.getByRole('heading', { name: `Report ${reported.name}` })).toBeVisible();
  const send = dialog.getByRole('button', { name: 'Send report' });
  await expect(send).toBeDisabled();
  await dialog.getByRole('radio', { name: 'Toxicity or abuse' }).check();
  await dialog.getByLabel('Details (optional)').fill('Insults in voice the whole match.');
  await send.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Thanks, your report was sent to the moderators')).toBeVisible();

  await page.goto('/reports');
  await expect(page.getByTestId('my-report').first()).toContainText(
    `Your report about ${reported.name} is waiting for review`,
  );

  if (shots) {
    for (const [locale, viewport, tag] of [
      ['en', DESKTOP, 'desktop'],
      ['en', PHONE, '390'],
      ['de', DESKTOP, 'desktop'],
      ['de', PHONE, '390'],
    ] as const) {
      const { context, page: p } = await openAs(browser, reporter, { locale, viewport });
      const d = await openReportDialog(p, reported.id);
      await d.getByRole('radio').nth(1).check();
      await d.getByRole('textbox').fill('Insults in voice the whole match.');
      await p.screenshot({ path: `${shots}/reports-dialog-${locale}-${tag}.png` });
      await context.close();
      const { context: c2, page: a } = await openAs(browser, admin, { locale, viewport });
      await a.goto('/admin/reports');
      await expect(a.getByTestId('report-card').first()).toBeVisible();
      await a.screenshot({ path: `${shots}/reports-admin-${locale}-${tag}.png`, fullPage: true });
      await c2.close();
    }
  }

  const { page: adminPage } = await openAs(browser, admin);
  await adminPage.goto('/admin/reports');
  const card = adminPage.getByTestId('report-card').filter({ hasText: reported.name }).first();
  await expect(card).toContainText(`${reporter.name} reported ${reported.name}`);
  await expect(card).toContainText('Insults in voice the whole match.');
  await expect(card.getByTestId('report-party')).toHaveCount(2);
  await card.getByRole('button', { name: 'Warn' }).click();
  await card.getByLabel('Message to the player').fill('Keep the voice chat civil.');
  await card.getByLabel('Note').fill('First report, warning only');
  await card.getByRole('button', { name: 'Send warning' }).click();
  await expect(adminPage.getByText('Report resolved')).toBeVisible();
  await adminPage.getByRole('tab', { name: 'Resolved' }).click();
  const done = adminPage.getByTestId('report-card').filter({ hasText: reported.name }).first();
  await expect(done.getByTestId('report-resolution')).toContainText('Warn by');

  await page.goto('/reports');
  await expect(page.getByTestId('my-report').first()).toContainText(
    `Your report about ${reported.name} was reviewed: action taken`,
  );
  await expect(page.getByTestId('my-reports')).not.toContainText('civil');

  const { page: warned } = await openAs(browser, reported);
  await warned.goto('/reports');
  await expect(warned.getByTestId('my-warning')).toContainText('Keep the voice chat civil.');
});
