import { type BillingCycle, cycleMonths, freePlanCode } from './catalogue.js';

// What the comparison of two plans needs.
export type PlanTierFacts = {
  billingCode: string;
  tierRank: number;
  canSelfServe: boolean;
  monthlyPrice: number;
  annualPrice: number;
};

export type PlanChoice = { plan: PlanTierFacts; cycle: BillingCycle };

export type PlanChangeKind = 'none' | 'contact-sales' | 'cycle-change' | 'upgrade' | 'downgrade';

export const classifyPlanChange = (current: PlanChoice, target: PlanChoice): PlanChangeKind => {
  const sameTier = current.plan.billingCode === target.plan.billingCode;
  if (sameTier && current.cycle === target.cycle) return 'none';
  if (!current.plan.canSelfServe || !target.plan.canSelfServe) return 'contact-sales';
  if (sameTier) return 'cycle-change';
  // A higher tier that costs less a year is a downgrade all the same.
  const higher = target.plan.tierRank > current.plan.tierRank;
  const cheaper = target.plan.annualPrice < current.plan.annualPrice;
  return higher && !cheaper ? 'upgrade' : 'downgrade';
};

// Cancelling a subscription is moving to the free tier on a monthly cycle.
export const cancellationTarget = { billingCode: freePlanCode, cycle: 'monthly' } as const;

export const periodPriceCents = (plan: PlanTierFacts, cycle: BillingCycle): number =>
  cycle === 'annual' ? plan.annualPrice : plan.monthlyPrice;

// The end of a billing period starting at `start` (calendar months in UTC; a day past the end of
// the shorter month is clamped to its last day).
export const periodEndOf = (start: Date, cycle: BillingCycle): Date => {
  const months = cycleMonths[cycle];
  const end = new Date(start.getTime());
  const day = start.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
};

export type Proration = {
  // The share of the current period's price not yet used, credited back.
  unusedCreditCents: number;
  // The new plan's price for a full period starting now.
  newChargeCents: number;
  amountDueNowCents: number;
  // Credit beyond the new charge, kept on the account for the next invoice.
  carriedCreditCents: number;
};

// A plan change starts a new period at once: the unused part of the current period is credited
// against the new plan's first period.
export const prorate = (input: {
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  currentPeriodPriceCents: number;
  targetPeriodPriceCents: number;
}): Proration => {
  const total = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = Math.min(Math.max(input.periodEnd.getTime() - input.now.getTime(), 0), total);
  const unusedCreditCents =
    total > 0 ? Math.round((input.currentPeriodPriceCents * left) / total) : 0;
  const newChargeCents = input.targetPeriodPriceCents;
  return {
    unusedCreditCents,
    newChargeCents,
    amountDueNowCents: Math.max(newChargeCents - unusedCreditCents, 0),
    carriedCreditCents: Math.max(unusedCreditCents - newChargeCents, 0),
  };
};
