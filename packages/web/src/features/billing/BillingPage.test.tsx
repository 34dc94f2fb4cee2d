// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBilling } from '../../test-support/billing-fixtures.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';

afterEach(cleanup);

const billingOn = { billingEnabled: true };

describe('the billing page', { timeout: 60_000 }, () => {
  it('shows an administrator every section and the Billing tab', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, billingOn);
    answerBilling(api, acmeId);
    const plan = await screen.findByRole('region', { name: 'Plan' });
    expect(within(plan).getByText('Prototype')).toBeTruthy();
    expect(within(plan).getByText('Billed monthly')).toBeTruthy();
    const usage = await screen.findByRole('table', { name: 'Usage' });
    expect(within(usage).getByText('Devices')).toBeTruthy();
    expect(within(usage).getByText('$8.00')).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Next bill' })).toBeTruthy();
    expect(await screen.findByText('No billing e-mail yet')).toBeTruthy();
    expect(await screen.findByText(/Invoices are paid by bank transfer/)).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Invoices' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Available plans' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Team member pricing' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Billing' }).getAttribute('href')).toBe(
      `/orgs/${acmeId}/billing`,
    );
    // No service agreement configured: no link to one.
    expect(screen.queryByRole('link', { name: 'service agreement' })).toBeNull();
  });

  it("links the operator's service agreement when the installation has one", async () => {
    const agreement = 'https://operator.example/agreement';
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, {
      ...billingOn,
      serviceAgreementUrl: agreement,
    });
    answerBilling(api, acmeId);
    const link = await screen.findByRole('link', { name: 'service agreement' });
    expect(link.getAttribute('href')).toBe(agreement);
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('lists the self-serve plans by price, enterprise last, with the change each would be', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, billingOn);
    answerBilling(api, acmeId);
    const table = await screen.findByRole('table', { name: 'Available plans' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Prototype',
      'Pilot',
      'Production',
      'Enterprise',
    ]);
    expect(within(table).getByRole('button', { name: 'Current plan: Prototype' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(table).getByRole('button', { name: 'Upgrade: Pilot' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Contact sales: Enterprise' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeTruthy();
  });

  it('hides payment, invoices and plans on a custom plan', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, billingOn);
    answerBilling(api, acmeId, { code: 'custom', title: 'Custom' });
    expect(await screen.findByText(/on a custom plan: contact sales/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Invoices' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Plans' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Payment method' })).toBeNull();
  });

  it('gives a member a no-access state, no billing call and no Billing tab', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'member', undefined, billingOn);
    const asked: string[] = [];
    for (const path of ['', '/plan', '/usage', '/invoices', '/info']) {
      api.on('GET', `/billing/v1/account/${acmeId}${path}`, () => {
        asked.push(path);
        return { status: 401, text: 'Unauthorized' };
      });
    }
    expect(
      await screen.findByText(
        "Only the organization's administrators can see and change its billing.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Billing' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Members' })).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('says billing is not used when the installation has it off, with no Billing tab', async () => {
    renderAt(`/orgs/${acmeId}/billing`, 'administrator');
    expect(await screen.findByText(/Billing is not used on this installation/)).toBeTruthy();
    await screen.findByRole('tab', { name: 'Members' });
    expect(screen.queryByRole('tab', { name: 'Billing' })).toBeNull();
  });
});

describe('/billing', { timeout: 60_000 }, () => {
  it('goes to the billing page of the organization the user administers', async () => {
    const { api, router } = renderAt('/billing', 'administrator', undefined, billingOn);
    answerBilling(api, acmeId);
    expect(await screen.findByRole('region', { name: 'Plan' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/orgs/${acmeId}/billing`);
  });

  it('says so when the user administers no organization', async () => {
    renderAt('/billing', 'member', undefined, billingOn);
    expect(await screen.findByText(/You administer no organization/)).toBeTruthy();
  });
});
