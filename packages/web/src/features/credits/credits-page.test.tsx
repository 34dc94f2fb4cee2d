// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeData } from '../../test-support/fake-odata.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';
import type { CreditSummary } from './api.js';

afterEach(cleanup);

const summary: CreditSummary = {
  billingEnabled: true,
  balance: 10,
  planCode: 'pilot-v2',
  planTitle: 'Pilot',
  supportsCredits: true,
  includedDevices: 50,
  deviceCount: 55,
  featureId: 2,
  unitCostCents: 200,
  salesThresholdCents: 1_000_000,
  maxPurchase: 100_000,
  hasPaymentMethod: true,
};

const bundle = (id: number) => ({
  id,
  created_at: `2026-0${id}-01T00:00:00Z`,
  original_quantity: id * 10,
  payment_status: 'manually invoiced',
  total_balance: id,
  total_cost: id * 2000,
  error_message: null,
  belongs_to__organization: { __id: acmeId },
  is_created_by__user: [{ id: 7, username: 'ada' }],
});

// The credits page over the strict fake API: Acme on Pilot with 55 devices and 10 credits.
const open = (answer: Partial<CreditSummary> = {}, bundles = 6) => {
  const rendered = renderAt(`/orgs/${acmeId}/credits`, 'administrator', (data: FakeData) => {
    data.credit_bundle = Array.from({ length: bundles }, (_, index) => bundle(index + 1));
    data.organization_credit_notification = [];
  });
  rendered.api.on('GET', `/billing/v1/account/${acmeId}/credits`, () => ({
    status: 200,
    body: { ...summary, ...answer },
  }));
  rendered.api.shapeCreated('credit_bundle', (body) => ({
    ...body,
    id: 99,
    created_at: '2026-09-01T00:00:00Z',
    payment_status: 'manually invoiced',
    error_message: null,
    total_balance: 3,
    total_cost: 600,
    is_created_by__user: [{ id: 7, username: 'ada' }],
  }));
  return rendered;
};

describe('the credits page', { timeout: 60_000 }, () => {
  it('shows the balance, the runway and the purchase history five a page', async () => {
    open();
    expect((await screen.findByLabelText('Available credits')).textContent).toBe('10');
    // ceil((55 + 1 - 50) x 12 / 2) - 10
    expect(screen.getByText('26 more credits needed for 12 months.')).toBeTruthy();
    const history = await screen.findByRole('table', { name: 'Purchase history' });
    expect(within(history).getAllByRole('row')).toHaveLength(6);
    expect(screen.getByText('1–5 of 6')).toBeTruthy();
  });

  it('buys credits in two steps and offers another purchase', async () => {
    const { api, user } = open();
    await user.click(await screen.findByRole('button', { name: 'Add credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purchase credits' });
    const quantity = within(dialog).getByLabelText('Credits to purchase');
    await user.clear(quantity);
    expect(within(dialog).getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    await user.type(quantity, '3x');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('$6.00')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    expect(await within(dialog).findByText('3 credits added.')).toBeTruthy();
    expect(api.writes).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        resource: 'credit_bundle',
        body: { belongs_to__organization: acmeId, is_for__feature: 2, original_quantity: 3 },
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Purchase more credits' }));
    expect(within(dialog).getByLabelText('Credits to purchase')).toHaveProperty('value', '1');
  });

  it('offers an upgrade instead on a plan without credits', async () => {
    open({ supportsCredits: false, planCode: 'prototype-v2', planTitle: 'Prototype' }, 0);
    const upgrade = await screen.findByRole('link', { name: 'Upgrade plan' });
    expect(upgrade.getAttribute('href')).toBe(`/orgs/${acmeId}/billing#billing-plans`);
    expect(await screen.findByText('No credits bought yet.')).toBeTruthy();
  });

  it('sets the low-credit threshold, twice the devices by default', async () => {
    const { api, user } = open();
    const threshold = await screen.findByLabelText('Mail the administrators below');
    expect(threshold).toHaveProperty('value', '110');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/On: the administrators are mailed/)).toBeTruthy();
    expect(api.writes).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        resource: 'organization_credit_notification',
        body: {
          organization: acmeId,
          owns_credit_notification_for__feature: 2,
          is_sent_when_below__threshold: 110,
        },
      }),
    );
  });

  it('says billing is not used when it is off', async () => {
    open({ billingEnabled: false });
    expect(
      await screen.findByText(
        'Billing is not used on this installation: there are no credits to buy.',
      ),
    ).toBeTruthy();
  });
});
