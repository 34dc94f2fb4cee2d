// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBilling } from '../../test-support/billing-fixtures.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';

afterEach(cleanup);

const billingOn = { billingEnabled: true };

describe('the plan-change confirmation', { timeout: 60_000 }, () => {
  it('states the proration of an upgrade and changes the plan with Pay now', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    const { changes } = answerBilling(api, acmeId);
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Pilot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade plan' });
    const table = await within(dialog).findByRole('table', { name: 'Plan change' });
    expect(within(table).getByText('Prototype (monthly)')).toBeTruthy();
    expect(within(table).getByText('Pilot (monthly)')).toBeTruthy();
    expect(within(table).getByText('$349.00')).toBeTruthy();
    expect(within(table).getByText('−$49.50')).toBeTruthy();
    expect(within(table).getByText('$8.00')).toBeTruthy();
    // 349.00 − 49.50 + 8.00 overage.
    expect(within(table).getByText('$307.50')).toBeTruthy();
    expect(within(dialog).queryByLabelText(/Why are you changing plan/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(changes).toEqual([{ tier: 'pilot-v2', annual: false }]));
    expect(await screen.findByText('Plan updated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('states the sales tax of a US billing address before Due now', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/plan/preview`, () => ({
      status: 200,
      body: {
        kind: 'upgrade',
        target: { title: 'Pilot', billingCode: 'pilot-v2', monthlyPrice: 34900, annualPrice: 0 },
        cycle: 'monthly',
        proration: {
          unusedCreditCents: 0,
          newChargeCents: 34900,
          amountDueNowCents: 34900,
          carriedCreditCents: 0,
        },
        overageCents: 0,
        taxCents: 2530,
        taxDescription: 'Sales tax (CA, 7.25%)',
        amountDueNowCents: 37430,
        freeAllowanceExceeded: false,
      },
    }));
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Pilot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade plan' });
    const table = await within(dialog).findByRole('table', { name: 'Plan change' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows.slice(-2)).toEqual(['Sales tax (CA, 7.25%)$25.30', 'Due now$374.30']);
  });

  it('takes an optional reason on a cancellation to free, confirmed with Confirm', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    const { changes } = answerBilling(api, acmeId);
    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    await user.type(await within(dialog).findByLabelText(/Why are you changing plan/), 'Too dear');
    expect(within(dialog).queryByRole('button', { name: 'Pay now' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(changes).toEqual([{ tier: 'free', annual: false, planChangeReason: 'Too dear' }]),
    );
  });

  it('asks for the recurring-debit terms before a paid plan debited from a bank account', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    const { changes } = answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/info`, () => ({
      status: 200,
      body: { type: 'us_bank_account', last_four: '6789' },
    }));
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Pilot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade plan' });
    expect(within(dialog).queryByRole('button', { name: 'Pay now' })).toBeNull();
    await user.click(await within(dialog).findByRole('button', { name: 'Next' }));
    const terms = await screen.findByRole('dialog', { name: 'Authorize recurring debits' });
    expect(within(terms).getByText(/bank account ending in 6789 for the Pilot plan/)).toBeTruthy();
    expect(within(terms).getByText(/30 days’ notice/)).toBeTruthy();
    expect(changes).toEqual([]);
    await user.click(within(terms).getByRole('button', { name: 'Agree and pay' }));
    await waitFor(() => expect(changes).toEqual([{ tier: 'pilot-v2', annual: false }]));
  });

  it('states the discount the organization keeps on the new plan', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/plan/preview`, () => ({
      status: 200,
      body: {
        kind: 'upgrade',
        target: { title: 'Pilot', billingCode: 'pilot-v2', monthlyPrice: 34900, annualPrice: 0 },
        cycle: 'monthly',
        proration: {
          unusedCreditCents: 0,
          newChargeCents: 34900,
          amountDueNowCents: 34900,
          carriedCreditCents: 0,
        },
        overageCents: 0,
        discountCents: 6980,
        amountDueNowCents: 27920,
        freeAllowanceExceeded: false,
      },
    }));
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Pilot' }));
    const table = await screen.findByRole('table', { name: 'Plan change' });
    const row = within(table).getByText('Your discount on it').closest('tr');
    expect(row?.textContent).toContain('−$69.80');
    expect(within(table).getByText('$279.20')).toBeTruthy();
  });

  it('sends a not-self-serve plan to sales, with no change button', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/plan/preview`, () => ({
      status: 200,
      body: {
        kind: 'contact-sales',
        target: {
          title: 'Enterprise',
          billingCode: 'enterprise-v2',
          monthlyPrice: 0,
          annualPrice: 0,
        },
        cycle: 'monthly',
        proration: {
          unusedCreditCents: 0,
          newChargeCents: 0,
          amountDueNowCents: 0,
          carriedCreditCents: 0,
        },
        overageCents: 0,
        amountDueNowCents: 0,
        freeAllowanceExceeded: false,
      },
    }));
    await user.click(await screen.findByRole('button', { name: 'Contact sales: Enterprise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact sales' });
    expect(await within(dialog).findByText(/not self-serve/)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Pay now' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('shows the server refusal and keeps the dialog open', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('PATCH', `/billing/v1/account/${acmeId}/plan`, () => ({
      status: 400,
      text: 'This plan change is not self-serve: please contact sales',
    }));
    await user.click(await screen.findByRole('button', { name: 'Upgrade: Production' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Pay now' }));
    expect(await within(dialog).findByText(/please contact sales/)).toBeTruthy();
  });

  it('opens for ?plan=&cycle= naming a self-serve plan, and not for another', async () => {
    const { api } = renderAt(
      `/orgs/${acmeId}/billing?plan=pilot-v2&cycle=annual`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade plan' });
    expect(await within(dialog).findByText('Pilot (annual)')).toBeTruthy();
    cleanup();
    const again = renderAt(
      `/orgs/${acmeId}/billing?plan=enterprise-v2&cycle=monthly`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(again.api, acmeId);
    await screen.findByRole('table', { name: 'Available plans' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
