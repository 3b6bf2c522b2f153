import { expect, test } from '@playwright/test';
import { ANALYTICS_MAIL_API } from '#common/analytics-mail.ts';
import { expectAccessible } from './helpers.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

const form = t.analyticsMail.form;

test('an admin chooses a weekly report and an alert at the end of the analytics page, by keyboard, and finds them kept', async ({
  page,
  context,
  baseURL,
}) => {
  const admin = await newStaff(context, baseURL ?? '', 'admin', 'Ada Admin');
  await signInToConsole(page, admin, '/console/analytics');
  const section = page.getByRole('region', { name: form.title });
  await expect(section.getByText(form.intro.replace('{{email}}', admin.email))).toBeVisible();
  // Nothing is mailed until the admin asks.
  await expect(section.getByRole('radio', { name: form.reports.none })).toBeChecked();
  const alert = section.getByRole('combobox', { name: form.alert });
  await expect(alert).toHaveValue('');
  await expect(alert).toHaveAccessibleDescription(form.alertHint);
  await expectAccessible(page);

  // The radio group by its arrow keys, the alert's list by the keyboard too.
  await section.getByRole('radio', { name: form.reports.none }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(section.getByRole('radio', { name: form.reports.weekly })).toBeChecked();
  await alert.selectOption({ label: form.alertMultiple.replace('{{multiple}}', '3') });
  const saved = page.waitForResponse(
    (response) => response.url().endsWith(ANALYTICS_MAIL_API.settings) && response.request().method() === 'POST',
  );
  await section.getByRole('button', { name: form.save }).press('Enter');
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(form.saved)).toBeVisible();
  await expectAccessible(page);

  await page.reload();
  await expect(section.getByRole('radio', { name: form.reports.weekly })).toBeChecked();
  await expect(section.getByRole('combobox', { name: form.alert })).toHaveValue('3');
});

test('an operator sees the analytics without the admins’ mail form', async ({ page, context, baseURL }) => {
  const operator = await newStaff(context, baseURL ?? '', 'operator');
  await signInToConsole(page, operator, '/console/analytics');
  // The form would come in the same render as the page's heading.
  await expect(page.getByRole('heading', { name: t.analytics.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: form.title })).toHaveCount(0);
});
