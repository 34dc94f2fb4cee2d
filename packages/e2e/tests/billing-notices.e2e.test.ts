import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { type BillingServer, startBillingServer } from '../support/billing-server.js';
import { launchBrowser, newPage } from '../support/browser.js';

// Billing's guard rails in the browser, on a billing server of its own with a service agreement:
// company info refusing an invalid tax id (nothing saved), the navbar notices strip counting down
// to the freeze of an organization with a past-due invoice, and a frozen organization sending its
// administrator to billing and its member to the organization list.
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('billing notices', () => {
  let browser: Browser;
  let server: BillingServer;
  let owner: ApiUser;
  let member: ApiUser;
  let organizationId: number;
  let organizationName: string;

  // What the server's clock cannot be made to do here: an invoice due `days` ago. The next
  // billing read settles the organization (past due, then frozen at 60 days).
  const makeOverdue = async (days: number) => {
    await server.db.query(
      `UPDATE "invoice" SET "due_on" = now() - make_interval(days => $2) WHERE "organization" = $1`,
      [organizationId, days],
    );
    await owner.client.request({
      method: 'GET',
      path: `/billing/v1/account/${organizationId}/invoices`,
    });
  };

  beforeAll(async () => {
    server = await startBillingServer('notices', {
      FLOTILLA_SERVICE_AGREEMENT_URL: 'https://flotilla.example/service-agreement',
    });
    browser = await launchBrowser();
    owner = await registerUser('notices-owner', server.url);
    member = await registerUser('notices-member', server.url);
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id', 'name'], $orderby: { id: 'asc' }, $top: 1 },
    });
    organizationId = organization?.id ?? 0;
    organizationName = organization?.name ?? '';
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
    // A paid plan: its first invoice is the one that falls past due.
    await owner.client.request({
      method: 'PATCH',
      path: `/billing/v1/account/${organizationId}/plan`,
      body: { tier: 'prototype-v2' },
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('company info refuses an invalid tax id with a clear error and saves nothing', async () => {
    const page = await newPage(browser, { baseUrl: server.url });
    await logInAs(page, owner);
    await page.goto(`/orgs/${organizationId}/billing`);
    const agreement = page.getByRole('link', { name: 'service agreement' });
    expect(await agreement.getAttribute('href')).toBe('https://flotilla.example/service-agreement');
    for (const width of [1366, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({
        path: `data/e2e-screens/billing-agreement-${width}.png`,
        fullPage: true,
      });
    }
    await page.getByRole('button', { name: 'Edit company info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Company info' });
    await dialog.getByLabel('Billing e-mail').fill('accounts@notices.example');
    await dialog.getByLabel('Company name').fill('Notices Inc.');
    await dialog.getByLabel('Tax id type').click();
    await page.getByRole('option', { name: 'DE – eu_vat' }).click();
    await dialog.getByLabel('Tax id', { exact: true }).fill('DE12');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Invalid tax id').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/billing-invalid-tax-id.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const saved = await owner.client.request<{ email?: string; tax_id: unknown }>({
      method: 'GET',
      path: `/billing/v1/account/${organizationId}`,
    });
    expect(saved.email).toBeUndefined();
    expect(saved.tax_id).toBeNull();
    await page.context().close();
  });

  it('the notices strip counts down to the freeze of a past-due organization', async () => {
    await makeOverdue(40);
    const page = await newPage(browser, { baseUrl: server.url });
    await logInAs(page, owner);
    await page.goto('/');
    const notice = page.getByText(
      new RegExp(
        `^${escaped(organizationName)} has an invoice \\d+ days past due: it will be frozen in \\d+ days\\.$`,
      ),
    );
    await notice.waitFor();
    await page.screenshot({ path: 'data/e2e-screens/billing-notices-strip.png' });
    await page.getByRole('link', { name: 'Pay now' }).click();
    await page.waitForURL(`**/orgs/${organizationId}/billing`);
    await page.getByRole('table', { name: 'Invoices' }).waitFor();
    await page.context().close();
  });

  it('a frozen organization sends its administrator to billing and its member away', async () => {
    await makeOverdue(61);
    const admin = await newPage(browser, { baseUrl: server.url });
    await logInAs(admin, owner);
    await admin.goto(`/orgs/${organizationId}/members`);
    await admin.waitForURL(`**/orgs/${organizationId}/billing`);
    await admin
      .getByText(
        'This organization is frozen: update its billing details and pay its past-due invoices to unfreeze it',
      )
      .waitFor();
    await admin
      .getByText(`${organizationName} is frozen: an invoice is over 60 days past due.`, {
        exact: false,
      })
      .first()
      .waitFor();
    await admin.screenshot({ path: 'data/e2e-screens/billing-frozen-admin.png' });
    await admin.context().close();

    const plain = await newPage(browser, { baseUrl: server.url });
    await logInAs(plain, member);
    await plain.goto(`/orgs/${organizationId}/members`);
    await plain.waitForURL(/\/orgs$/);
    await plain
      .getByText(
        'This organization is frozen: please reach its administrators to update its billing details',
      )
      .waitFor();
    await plain.context().close();
  });
});
