import {
  type BillingCycle,
  cycleMonths,
  freePlanCode,
  featureSlugs,
} from '@flotilla/shared/billing/catalogue';
import {
  classifyPlanChange,
  type PlanChangeKind,
  periodEndOf,
  periodPriceCents,
  type Proration,
  prorate,
} from '@flotilla/shared/billing/plan-change';
import { salesTaxDescription } from '@flotilla/shared/billing/sales-tax';
import type { Database, Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { type Plan, planByCodeOrTier } from './catalogue.js';
import { computeCharges } from './charges.js';
import { consumeCredits } from './credit-ledger.js';
import { applyFreeAllowance } from './free-allowance.js';
import { discountLines, discountOnPlan, subscriptionDiscount } from './discounts.js';
import { type InvoiceLine, issueInvoice, toInvoiceLines, trackOverdue } from './invoices.js';
import { accountSalesTax } from './sales-tax.js';
import { meterOrganization, periodPeak, recordUsageDay } from './metering.js';
import { activeSubscription, type Subscription, startSubscription } from './subscriptions.js';

// Periods a settlement catches up on at most in one go (an installation stopped for years).
const maxPeriodsPerSettlement = 120;

const overageLines = (
  plan: Plan,
  cycle: BillingCycle,
  peak: Record<string, number>,
): InvoiceLine[] =>
  toInvoiceLines(
    computeCharges(plan, cycle, peak).lines.filter((line) => line.itemType !== 'plan'),
  );

const baseLine = (plan: Plan, cycle: BillingCycle, label: string): InvoiceLine[] => {
  const price = periodPriceCents(plan, cycle);
  return toInvoiceLines([
    {
      code: plan.billingCode,
      itemType: 'plan',
      name: `${plan.title} plan (${cycle}), ${label}`,
      quantity: 1,
      unitCostCents: price,
      amountCents: price,
      isQuantifiable: false,
    },
  ]);
};

// Brings an organization's billing up to `now`: each period that ended is invoiced (its overage
// at the period's peak usage, and the plan's price for the next period, billed in advance),
// overdue invoices are marked, and today's usage is recorded. Returns the active subscription.
export const settleOrganization = async (
  db: Database,
  organization: number,
  now: Date,
): Promise<Subscription> =>
  db.transaction(async (tx) => {
    let subscription = await activeSubscription(tx, organization, now, { lock: true });
    for (let n = 0; n < maxPeriodsPerSettlement && subscription.periodEnd <= now; n += 1) {
      const { plan, cycle, periodStart, periodEnd } = subscription;
      const peak = await periodPeak(tx, organization, periodStart, periodEnd);
      const nextEnd = periodEndOf(periodEnd, cycle);
      const overage = overageLines(plan, cycle, peak);
      const credits = await consumeCredits(
        tx,
        organization,
        overage,
        cycleMonths[cycle],
        periodEnd,
      );
      const base = baseLine(plan, cycle, 'next period');
      const discount = discountLines(await subscriptionDiscount(tx, subscription.id), base);
      await issueInvoice(tx, {
        organization,
        now: periodEnd,
        periodStart,
        periodEnd: nextEnd,
        lines: [...overage, ...credits, ...base, ...discount],
      });
      await tx.query(
        `UPDATE "subscription" SET "current_period_starts_on__date" = $2, "current_period_ends_on__date" = $3
         WHERE "id" = $1`,
        [subscription.id, periodEnd, nextEnd],
      );
      subscription = await activeSubscription(tx, organization, now, { lock: true });
    }
    await trackOverdue(tx, organization, now);
    await applyFreeAllowance(tx, organization, subscription.plan);
    await recordUsageDay(tx, organization, now, await meterOrganization(tx, organization));
    return subscription;
  });

export type PlanChangePreview = {
  kind: PlanChangeKind;
  target: Plan;
  cycle: BillingCycle;
  proration: Proration;
  // Overage of the current period so far, billed with the change.
  overageCents: number;
  // The subscription's discount (code or negotiated) on the new plan's first period.
  discountCents: number;
  // US sales tax on the amount due now (the billing address's state), included in it.
  taxCents: number;
  taxDescription: string | null;
  amountDueNowCents: number;
  // The free plan proposed while devices exceed its allowance (or are frozen): contact sales.
  freeAllowanceExceeded: boolean;
};

const preview = async (
  db: Queryable,
  subscription: Subscription,
  now: Date,
  code: string,
  cycle: BillingCycle,
): Promise<{ answer: PlanChangePreview; overage: InvoiceLine[]; discount: InvoiceLine[] }> => {
  const target = await planByCodeOrTier(db, code);
  if (!target) throw badRequest(`There is no plan ${code}`);
  const kind = classifyPlanChange(subscription, { plan: target, cycle });
  // The unused time is credited at the price paid for it (after its discount).
  const paid = await subscriptionDiscount(db, subscription.id);
  const currentPrice = periodPriceCents(subscription.plan, subscription.cycle);
  const proration = prorate({
    periodStart: subscription.periodStart,
    periodEnd: subscription.periodEnd,
    now,
    currentPeriodPriceCents: currentPrice - Math.round((currentPrice * paid.percentage) / 100),
    targetPeriodPriceCents: periodPriceCents(target, cycle),
  });
  const discount = discountLines(
    await discountOnPlan(db, subscription.id, target.id),
    baseLine(target, cycle, 'first period'),
  );
  const discountCents = -discount.reduce((sum, line) => sum + line.amountCents, 0);
  const peak = await periodPeak(
    db,
    subscription.organization,
    subscription.periodStart,
    new Date(now.getTime() + 1),
  );
  const overage = overageLines(subscription.plan, subscription.cycle, peak);
  const overageCents = overage.reduce((sum, line) => sum + line.amountCents, 0);
  const current = await meterOrganization(db, subscription.organization);
  const dueBeforeTax = Math.max(
    proration.newChargeCents - discountCents - proration.unusedCreditCents + overageCents,
    0,
  );
  const tax = await accountSalesTax(db, subscription.organization, dueBeforeTax);
  const allowance = target.features[featureSlugs.device] ?? 0;
  return {
    overage,
    discount,
    answer: {
      kind,
      target,
      cycle,
      // What the invoice carries to the account when the credit exceeds the discounted charge
      // and the overage (a negative total goes to the balance).
      proration: {
        ...proration,
        carriedCreditCents: Math.max(
          proration.unusedCreditCents + discountCents - proration.newChargeCents - overageCents,
          0,
        ),
      },
      overageCents,
      discountCents,
      taxCents: tax?.taxCents ?? 0,
      taxDescription: tax ? salesTaxDescription(tax) : null,
      amountDueNowCents: dueBeforeTax + (tax?.taxCents ?? 0),
      freeAllowanceExceeded:
        target.billingCode === freePlanCode &&
        ((current[featureSlugs.device] ?? 0) > allowance || (current['device:frozen'] ?? 0) > 0),
    },
  };
};

export const previewPlanChange = async (
  db: Database,
  organization: number,
  now: Date,
  code: string,
  cycle: BillingCycle,
): Promise<PlanChangePreview> => {
  const subscription = await settleOrganization(db, organization, now);
  return (await preview(db, subscription, now, code, cycle)).answer;
};

// Changes the plan at once: the unused part of the current period is credited, the new plan's
// first period is billed from now, and the current period's overage so far is billed with it.
// `transaction` runs the change (a route's own, which records it in the same transaction).
export const changePlan = async (
  db: Database,
  organization: number,
  now: Date,
  change: { code: string; cycle: BillingCycle; reason: string | null },
  transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> = (work) =>
    db.transaction(work),
): Promise<PlanChangePreview> => {
  await settleOrganization(db, organization, now);
  return transaction(async (tx) => {
    const subscription = await activeSubscription(tx, organization, now, { lock: true });
    const {
      answer: planned,
      overage,
      discount,
    } = await preview(tx, subscription, now, change.code, change.cycle);
    if (planned.kind === 'none') return planned;
    if (planned.kind === 'contact-sales') {
      throw badRequest('This plan change is not self-serve: please contact sales');
    }
    const credit: InvoiceLine[] =
      planned.proration.unusedCreditCents > 0
        ? [
            {
              code: 'proration',
              description: `Unused time on ${subscription.plan.title} plan`,
              quantity: 1,
              unitCostCents: -planned.proration.unusedCreditCents,
              amountCents: -planned.proration.unusedCreditCents,
            },
          ]
        : [];
    const credits = await consumeCredits(
      tx,
      organization,
      overage,
      cycleMonths[subscription.cycle],
      now,
    );
    await issueInvoice(tx, {
      organization,
      now,
      periodStart: now,
      periodEnd: periodEndOf(now, change.cycle),
      lines: [
        ...overage,
        ...credits,
        ...credit,
        ...baseLine(planned.target, change.cycle, 'first period'),
        ...discount,
      ],
    });
    await startSubscription(tx, organization, planned.target, change.cycle, now, change.reason);
    await applyFreeAllowance(tx, organization, planned.target);
    // The discount (a code, a negotiated percentage) stays with the organization's new plan.
    await tx.query(
      `UPDATE "subscription" n SET "discount_code" = o."discount_code",
         "discount_percentage" = o."discount_percentage"
       FROM "subscription" o
       WHERE o."id" = $2 AND n."is_for__organization" = $1 AND n."is_active"`,
      [organization, subscription.id],
    );
    return planned;
  });
};
