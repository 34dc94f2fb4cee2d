import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// The audit log from the console: an organization administrator reads what changed in their
// organization, filters it, exports it, and sees a fleet's own history.
describe('the audit log', () => {
  let browser: Browser;
  let owner: ApiUser;
  let organizationId: number;
  let fleetId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('audit-owner');
    fleetId = await createFleet(owner, 'audited-fleet');
    await owner.client.pine.patch({
      resource: 'application',
      id: fleetId,
      body: { app_name: 'audited-renamed' },
    });
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
    });
    organizationId = organization?.id ?? 0;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows, filters and exports the organization's log, and a fleet's history", async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/orgs/${organizationId}`);
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByText('app_name: audited-fleet → audited-renamed').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/audit-log.png', fullPage: true });

    const filters = page.getByRole('form', { name: 'Audit log filters' });
    await filters.getByLabel('Resource').fill('device');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No records match these filters.').waitFor();
    await filters.getByLabel('Resource').fill('application');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await table.getByText('app_name: audited-fleet → audited-renamed').waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`audit-log-${organizationId}.csv`);

    await page.goto(`/fleets/${fleetId}`);
    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('table', { name: 'Fleet history' });
    await history.getByText('app_name: audited-fleet → audited-renamed').waitFor();
    await page.context().close();
  });
});
