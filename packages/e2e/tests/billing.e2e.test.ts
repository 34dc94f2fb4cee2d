import { buffer } from 'node:stream/consumers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { startBillingServer } from '../support/billing-server.js';

// The billing page on a server of its own with FLOTILLA_BILLING=on (the run's server has billing
// off, which other scenarios rely on): an organization administrator sees the free plan,
// previews and takes an upgrade, and downloads the invoice it issued as a PDF; a member of the
// organization sees no Billing tab and no billing; the help drawer's Upgrade is the
// administrator's only.
describe('billing', () => {
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let url: string;
  let owner: ApiUser;
  let member: ApiUser;
  let organizationId: number;

  beforeAll(async () => {
    const server = await startBillingServer('billing');
    stopServer = server.stop;
    url = server.url;
    browser = await launchBrowser();
    owner = await registerUser('billing-owner', url);
    member = await registerUser('billing-member', url);
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
    });
    organizationId = organization?.id ?? 0;
    const [role] = await owner.client.pine.get({
      resource: 'organization_membership_role',
      options: { $select: ['id'], $filter: { name: 'member' } },
    });
    await owner.client.pine.post({
      resource: 'organization_membership',
      body: {
        user: member.userId,
        is_member_of__organization: organizationId,
        organization_membership_role: role?.id,
      },
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stopServer?.();
  });

  it("the help drawer offers the organization's administrator an Upgrade, a member none", async () => {
    const openDrawer = async (user: ApiUser) => {
      const page = await newPage(browser, { baseUrl: url });
      await logInAs(page, user);
      await page.goto('/');
      await page.getByRole('button', { name: /^Help and status/ }).click();
      const drawer = page.getByLabel('Help and support');
      await drawer.getByText('Private support is available on paid plans.').waitFor();
      await drawer.getByRole('textbox', { name: 'Search the documentation' }).waitFor();
      return { page, drawer };
    };
    const admin = await openDrawer(owner);
    const upgrade = admin.drawer.getByRole('link', { name: 'Upgrade' });
    expect(await upgrade.getAttribute('href')).toBe(
      `/orgs/${organizationId}/billing#billing-plans`,
    );
    await admin.page.context().close();
    // A member who also administers an organization of their own chooses the shared one.
    const plain = await openDrawer(member);
    const shared = await owner.client.pine.get({
      resource: 'organization',
      id: organizationId,
      options: { $select: ['name'] },
    });
    const picker = plain.drawer.getByRole('combobox', { name: 'Organization' });
    if ((await picker.count()) > 0) {
      await picker.click();
      await plain.page.getByRole('option', { name: shared?.name ?? '' }).click();
    }
    await plain.drawer.getByText('Private support is available on paid plans.').waitFor();
    expect(await plain.drawer.getByRole('link', { name: 'Upgrade' }).count()).toBe(0);
    await plain.page.context().close();
  });

  it('an administrator upgrades from the free plan and downloads the invoice', async () => {
    const page = await newPage(browser, { baseUrl: url });
    await logInAs(page, owner);
    await page.goto(`/orgs/${organizationId}`);
    await page.getByRole('tab', { name: 'Billing' }).click();
    const plan = page.getByRole('region', { name: 'Plan', exact: true });
    await plan.getByText('Free', { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Available plans' }).waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: 'data/e2e-screens/billing-1440.png', fullPage: true });
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.screenshot({ path: 'data/e2e-screens/billing-1366.png', fullPage: true });

    await page.getByRole('button', { name: 'Upgrade: Prototype' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade plan' });
    const change = dialog.getByRole('table', { name: 'Plan change' });
    await change.getByText('Prototype (monthly)').waitFor();
    await change.getByText('Due now').waitFor();
    await change.getByText('$99.00').first().waitFor();
    await page.screenshot({ path: 'data/e2e-screens/billing-upgrade.png' });
    await dialog.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('Plan updated').waitFor();
    await plan.getByText('Prototype', { exact: true }).waitFor();

    const invoices = page.getByRole('table', { name: 'Invoices' });
    const download = page.waitForEvent('download');
    await invoices
      .getByRole('button', { name: /^Download FLT-/ })
      .first()
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^invoice-FLT-\d{6}-\d{4}-\d{2}-\d{2}\.pdf$/);
    // Read through the connection: the run's Chromium keeps its downloads on its side.
    const bytes = await buffer(await file.createReadStream());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.context().close();
  });

  it('a member of the organization sees no billing', async () => {
    const page = await newPage(browser, { baseUrl: url });
    await logInAs(page, member);
    await page.goto(`/orgs/${organizationId}`);
    await page.getByRole('tab', { name: 'Members' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Billing' }).count()).toBe(0);
    await page.goto(`/orgs/${organizationId}/billing`);
    await page
      .getByText("Only the organization's administrators can see and change its billing.")
      .waitFor();
    expect(await page.getByRole('region', { name: 'Plan', exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
