import { featureSlugs } from './catalogue.js';

// A plan of the catalogue as GET /billing/v1/plans answers it (prices in cents).
export type CataloguePlan = {
  id: number;
  title: string;
  billing_code: string;
  tier_rank: number;
  monthly_price: number;
  annual_price: number;
  can_self_serve: boolean;
  is_legacy: boolean;
  is_valid_from__date: string | null;
  is_valid_until__date: string | null;
  additional_device_price: number;
  additional_microservices_device_price: number;
  bills_seats: boolean;
  // Feature slug → included quantity (1 for a flag feature).
  features: Record<string, number>;
  support: { slug: string; title: string } | null;
};

export const enterprisePlanCode = 'enterprise-v2';

// The plans offered for a change: self-serve, not legacy, priced, valid now, by monthly price;
// enterprise (contact sales) always last.
export const plansShown = (plans: readonly CataloguePlan[], now: Date): CataloguePlan[] => {
  const valid = (plan: CataloguePlan) =>
    (plan.is_valid_from__date === null || new Date(plan.is_valid_from__date) <= now) &&
    (plan.is_valid_until__date === null || new Date(plan.is_valid_until__date) > now);
  const selfServe = plans
    .filter((plan) => plan.can_self_serve && !plan.is_legacy && plan.monthly_price > 0)
    .filter(valid)
    .sort((a, b) => a.monthly_price - b.monthly_price);
  const enterprise = plans.find((plan) => plan.billing_code === enterprisePlanCode);
  return enterprise && valid(enterprise) ? [...selfServe, enterprise] : selfServe;
};

export const includedDevices = (plan: CataloguePlan): number =>
  plan.features[featureSlugs.device] ?? 0;

// A plan includes at least one member.
export const includedMembers = (plan: CataloguePlan): number =>
  Math.max(plan.features[featureSlugs.member] ?? 1, 1);

// Whether the plan and cycle of the billing page's query parameters open the confirmation.
export const isSelfServeChoice = (
  plans: readonly CataloguePlan[],
  code: string | null,
  cycle: string | null,
  now: Date,
): boolean =>
  (cycle === 'monthly' || cycle === 'annual') &&
  plansShown(plans, now).some((plan) => plan.billing_code === code && plan.can_self_serve);
