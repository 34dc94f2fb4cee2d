import { customPlanCode, cycleMonths, tierCodeOf } from '@flotilla/shared/billing/catalogue';
import type { Charges } from './charges.js';
import type { PlanFacts } from '@flotilla/shared/billing/plan-gates';
import type { Subscription } from './subscriptions.js';

type WireCharges = {
  currency: string;
  totalCostCents: string;
  charges: {
    itemType: string;
    name: string;
    code: string;
    unitCostCents: string;
    quantity: string;
    isQuantifiable: boolean;
  }[];
};

// balena-sdk's BillingPlanInfo, plus what the plan gates read (features, paid, billing on).
export type PlanInfo = {
  name: string;
  title: string;
  code: string;
  tier: string;
  intervalUnit: string;
  intervalLength: string;
  currentPeriodEndDate?: string;
  billing: WireCharges;
  addonPlan: {
    code: string;
    currentPeriodEndDate?: string;
    billing: WireCharges;
    addOns: { code: string; quantity: string; unitCostCents: string }[];
  };
  support: { name: string; title: string };
  features: string[];
  isPaid: boolean;
  billingEnabled: boolean;
};

const wire = (charges: Charges): WireCharges => ({
  currency: 'USD',
  totalCostCents: String(charges.totalCents),
  charges: charges.lines.map((line) => ({
    itemType: line.itemType,
    name: line.name,
    code: line.code,
    unitCostCents: String(line.unitCostCents),
    quantity: String(line.quantity),
    isQuantifiable: line.isQuantifiable,
  })),
});

const noCharges: WireCharges = { currency: 'USD', totalCostCents: '0', charges: [] };

const isPaidPlan = (subscription: Subscription): boolean =>
  subscription.plan.monthlyPrice > 0 ||
  subscription.plan.annualPrice > 0 ||
  !subscription.plan.canSelfServe;

const featuresOf = (subscription: Subscription): string[] => [
  ...Object.keys(subscription.plan.features),
  ...subscription.addons,
];

// What the plan gates read of a subscription (billing on).
export const planFactsOf = (subscription: Subscription): PlanFacts => ({
  billingEnabled: true,
  billingCode: subscription.plan.billingCode,
  isPaid: isPaidPlan(subscription),
  features: featuresOf(subscription),
});

// The current plan with the next bill as it stands (the period's price and its overage so far).
export const planInfoOf = (subscription: Subscription, charges: Charges): PlanInfo => {
  const { plan } = subscription;
  const periodEnd = subscription.periodEnd.toISOString();
  return {
    name: plan.title,
    title: plan.title,
    code: plan.billingCode,
    tier: tierCodeOf(plan.billingCode),
    intervalUnit: 'months',
    intervalLength: String(cycleMonths[subscription.cycle]),
    currentPeriodEndDate: periodEnd,
    billing: wire(charges),
    addonPlan: {
      code: `${plan.billingCode}-addons`,
      currentPeriodEndDate: periodEnd,
      billing: noCharges,
      addOns: subscription.addons.map((code) => ({ code, quantity: '1', unitCostCents: '0' })),
    },
    support: { name: plan.support.slug, title: plan.support.title },
    features: featuresOf(subscription),
    isPaid: isPaidPlan(subscription),
    billingEnabled: true,
  };
};

// With billing off, every organization is on an unlimited custom plan.
export const unlimitedPlanInfo: PlanInfo = {
  name: 'Unlimited',
  title: 'Unlimited',
  code: customPlanCode,
  tier: customPlanCode,
  intervalUnit: 'months',
  intervalLength: '1',
  billing: noCharges,
  addonPlan: { code: `${customPlanCode}-addons`, billing: noCharges, addOns: [] },
  support: { name: 'premium', title: 'Premium' },
  features: [
    'device:any',
    'device:microservices',
    'member:any',
    'saml_access',
    'safe-roles-preview-addon',
  ],
  isPaid: true,
  billingEnabled: false,
};
