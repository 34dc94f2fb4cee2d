import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { startBillingServer } from '../support/billing-server.js';

// The credits page on a server of its own with FLOTILLA_BILLING=on (the run's server has billing
// off): an administrator of an organization on Pilot buys credits in the two-step dialog (the
// manual provider invoices them), sees the balance and the purchase, and works out a runway.
describe('credits', () => {
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let url: string;
  let owner: ApiUser;
  let organizationId: number;

  beforeAll(async () => {
    const server = await startBillingServer('credits');
    stopServer = server.stop;
    url = server.url;
    browser = await launchBrowser();
    owner = await registerUser('credits-owner', url);
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
    });
    organizationId = organization?.id ?? 0;
    // Credits are sold on Pilot, Production and Enterprise.
    await owner.client.request({
      method: 'PATCH',
      path: `/billing/v1/account/${organizationId}/plan`,
      body: { tier: 'pilot-v2' },
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stopServer?.();
  });

  it('an administrator buys credits and sees the balance and the runway', async () => {
    const page = await newPage(browser, { baseUrl: url });
    await logInAs(page, owner);
    await page.goto(`/orgs/${organizationId}/credits`);
    const balance = page.getByLabel('Available credits');
    await expect.poll(() => balance.textContent()).toBe('0');

    await page.getByRole('button', { name: 'Add credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purchase credits' });
    await dialog.getByLabel('Credits to purchase').fill('25');
    await dialog.getByRole('button', { name: 'Next' }).click();
    // Pilot's price of a multi-container device over the plan: $2.00 a credit.
    await expect
      .poll(() => dialog.getByText(/25 credits at/).textContent())
      .toBe('25 credits at $2.00: $50.00');
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await dialog.getByText('25 credits added.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    await expect.poll(() => balance.textContent()).toBe('25');
    const history = page.getByRole('table', { name: 'Purchase history' });
    await history.getByText('manually invoiced').waitFor();

    // Pilot includes 50 devices: 60 more for 12 months need (60 − 50) × 12 / 2 = 60 credits,
    // 35 beyond the 25 bought; 54 need 24, which the balance covers.
    await page.getByLabel('Months').fill('12');
    await page.getByLabel('Estimated new devices').fill('60');
    await page.getByText('35 more credits needed for 12 months.').waitFor();
    await page.getByLabel('Estimated new devices').fill('54');
    await page.getByText('No credits needed: your balance covers this.').waitFor();
    await page.context().close();
  });
});
