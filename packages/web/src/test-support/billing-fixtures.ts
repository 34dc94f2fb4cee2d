import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import type { FakeApi } from './fake-api.js';

// The billing API of an organization for the fake API: Acme on the prototype plan (monthly),
// the default catalogue, two invoices (one paid, one draft), and a preview/change that answers
// what the server's engine would.

const plan = (
  id: number,
  title: string,
  code: string,
  rank: number,
  monthly: number,
  devices: number,
  selfServe = true,
): CataloguePlan => ({
  id,
  title,
  billing_code: code,
  tier_rank: rank,
  monthly_price: monthly,
  annual_price: monthly * 12 * 0.9,
  can_self_serve: selfServe,
  is_legacy: false,
  is_valid_from__date: null,
  is_valid_until__date: null,
  additional_device_price: 150,
  additional_microservices_device_price: 200,
  bills_seats: true,
  features: { 'device:any': devices, 'member:any': rank + 1 },
  support: { slug: 'community', title: rank >= 2 ? 'Standard' : 'Community' },
});

export const billingCatalogue: CataloguePlan[] = [
  plan(1, 'Free', 'free', 0, 0, 10),
  plan(2, 'Prototype', 'prototype-v2', 1, 9900, 20),
  plan(3, 'Pilot', 'pilot-v2', 2, 34900, 50),
  plan(4, 'Production', 'production-v2', 3, 129900, 200),
  plan(5, 'Enterprise', 'enterprise-v2', 4, 0, 1000, false),
];

export const currentPlan = (code = 'prototype-v2', title = 'Prototype') => ({
  name: title,
  title,
  code,
  tier: code.replace(/-v\d+$/, ''),
  intervalUnit: 'months',
  intervalLength: '1',
  currentPeriodEndDate: '2026-03-01T00:00:00.000Z',
  billing: {
    currency: 'USD',
    totalCostCents: '9900',
    charges: [
      {
        itemType: 'plan',
        name: `${title} plan`,
        code,
        unitCostCents: '9900',
        quantity: '1',
        isQuantifiable: false,
      },
    ],
  },
  addonPlan: { code: `${code}-addons`, billing: {}, addOns: [] },
  support: { name: 'community', title: 'Community' },
  features: ['device:any'],
  isPaid: code !== 'free',
  billingEnabled: true,
});

export const billingInvoices = [
  {
    uuid: 'a1',
    invoice_number: 'FLT-000002',
    created_at: '2026-02-01T00:00:00.000Z',
    due_on: '2026-03-03T00:00:00.000Z',
    state: 'draft',
    total_in_cents: '9900',
  },
  {
    uuid: 'a0',
    invoice_number: 'FLT-000001',
    created_at: '2026-01-01T00:00:00.000Z',
    due_on: '2026-01-31T00:00:00.000Z',
    state: 'paid',
    total_in_cents: '9900',
  },
];

// Answers every billing call of organization `id`; returns what the plan change received.
export const answerBilling = (
  api: FakeApi,
  id: number,
  options: { code?: string; title?: string } = {},
) => {
  const base = `/billing/v1/account/${id}`;
  const changes: unknown[] = [];
  api.on('GET', '/billing/v1/plans', () => ({ status: 200, body: billingCatalogue }));
  api.on('GET', `${base}/plan`, () => ({
    status: 200,
    body: currentPlan(options.code, options.title),
  }));
  api.on('GET', `${base}/usage`, () => ({
    status: 200,
    body: {
      periodStart: '2026-02-01T00:00:00.000Z',
      periodEnd: '2026-03-01T00:00:00.000Z',
      currentUsage: { 'device:any': 12 },
      peakUsage: { 'device:any': 24 },
      overage: { 'device:any': 4 },
      charges: { 'device:any': 800 },
    },
  }));
  api.on('GET', `${base}/info`, () => ({ status: 200, body: {} }));
  api.on('GET', base, () => ({
    status: 200,
    body: { account_state: 'active', address: {}, tax_id: null },
  }));
  api.on('GET', `${base}/invoices`, () => ({ status: 200, body: billingInvoices }));
  api.on('GET', `${base}/plan/preview`, (_body, url) => {
    const target = billingCatalogue.find(
      (entry) => entry.billing_code === url.searchParams.get('tier'),
    );
    return {
      status: 200,
      body: {
        kind: (target?.tier_rank ?? 0) > 1 ? 'upgrade' : 'downgrade',
        target: {
          title: target?.title,
          billingCode: target?.billing_code,
          monthlyPrice: target?.monthly_price,
          annualPrice: target?.annual_price,
        },
        cycle: url.searchParams.get('cycle'),
        proration: {
          unusedCreditCents: 4950,
          newChargeCents: target?.monthly_price ?? 0,
          amountDueNowCents: Math.max((target?.monthly_price ?? 0) - 4950, 0),
          carriedCreditCents: Math.max(4950 - (target?.monthly_price ?? 0), 0),
        },
        overageCents: 800,
        amountDueNowCents: Math.max((target?.monthly_price ?? 0) - 4950 + 800, 0),
        freeAllowanceExceeded: false,
      },
    };
  });
  api.on('PATCH', `${base}/plan`, (body) => {
    changes.push(body);
    return { status: 200, body: {} };
  });
  return { changes };
};
