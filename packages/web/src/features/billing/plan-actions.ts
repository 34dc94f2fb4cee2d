import type { BillingCycle } from '@flotilla/shared/billing/catalogue';
import { classifyPlanChange, type PlanChangeKind } from '@flotilla/shared/billing/plan-change';
import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';

const factsOf = (plan: CataloguePlan) => ({
  billingCode: plan.billing_code,
  tierRank: plan.tier_rank,
  canSelfServe: plan.can_self_serve,
  monthlyPrice: plan.monthly_price,
  annualPrice: plan.annual_price,
});

// What choosing `target` on `cycle` would be from the current plan (unknown current: contact
// sales, as a custom plan).
export const changeKindOf = (
  current: CataloguePlan | undefined,
  currentCycle: BillingCycle,
  target: CataloguePlan,
  cycle: BillingCycle,
): PlanChangeKind =>
  current === undefined
    ? 'contact-sales'
    : classifyPlanChange(
        { plan: factsOf(current), cycle: currentCycle },
        { plan: factsOf(target), cycle },
      );

export const actionLabels: Record<PlanChangeKind, string> = {
  none: 'Current plan',
  'contact-sales': 'Contact sales',
  'cycle-change': 'Change cycle',
  upgrade: 'Upgrade',
  downgrade: 'Downgrade',
};

// The price a plan table shows per month (an annual price spread over 12 months).
export const monthlyCents = (plan: CataloguePlan, cycle: BillingCycle): number =>
  cycle === 'annual' ? Math.round(plan.annual_price / 12) : plan.monthly_price;
