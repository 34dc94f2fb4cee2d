import { describe, expect, it } from 'vitest';
import { classifyPlanChange, periodEndOf, type PlanTierFacts, prorate } from './plan-change.js';

const plan = (
  billingCode: string,
  tierRank: number,
  monthlyPrice: number,
  canSelfServe = true,
): PlanTierFacts => ({
  billingCode,
  tierRank,
  canSelfServe,
  monthlyPrice,
  annualPrice: monthlyPrice * 12,
});
const free = plan('free', 0, 0);
const prototype = plan('prototype-v2', 1, 9900);
const pilot = plan('pilot-v2', 2, 34900);
const enterprise = plan('enterprise-v2', 4, 0, false);

describe('classifyPlanChange', () => {
  it('tells every kind apart', () => {
    const monthly = (p: PlanTierFacts) => ({ plan: p, cycle: 'monthly' as const });
    const annual = (p: PlanTierFacts) => ({ plan: p, cycle: 'annual' as const });
    expect(classifyPlanChange(monthly(pilot), monthly(pilot))).toBe('none');
    expect(classifyPlanChange(monthly(pilot), annual(pilot))).toBe('cycle-change');
    expect(classifyPlanChange(monthly(prototype), monthly(pilot))).toBe('upgrade');
    expect(classifyPlanChange(monthly(pilot), annual(prototype))).toBe('downgrade');
    expect(classifyPlanChange(monthly(pilot), monthly(free))).toBe('downgrade');
    expect(classifyPlanChange(monthly(pilot), monthly(enterprise))).toBe('contact-sales');
    expect(classifyPlanChange(monthly(enterprise), monthly(pilot))).toBe('contact-sales');
  });

  it('calls a higher tier with a lower annual price a downgrade', () => {
    const cheapHigh = { ...plan('production-v2', 3, 100), annualPrice: 1 };
    expect(
      classifyPlanChange({ plan: pilot, cycle: 'monthly' }, { plan: cheapHigh, cycle: 'monthly' }),
    ).toBe('downgrade');
  });
});

describe('periodEndOf', () => {
  it('adds calendar months, clamping to the end of a shorter month', () => {
    expect(periodEndOf(new Date('2026-01-31T10:00:00Z'), 'monthly').toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(periodEndOf(new Date('2026-03-15T00:00:00Z'), 'monthly').toISOString()).toBe(
      '2026-04-15T00:00:00.000Z',
    );
    expect(periodEndOf(new Date('2024-02-29T00:00:00Z'), 'annual').toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
  });
});

describe('prorate', () => {
  const periodStart = new Date('2026-04-01T00:00:00Z');
  const periodEnd = new Date('2026-05-01T00:00:00Z');

  it('credits the unused half of a period against the new charge', () => {
    expect(
      prorate({
        periodStart,
        periodEnd,
        now: new Date('2026-04-16T00:00:00Z'),
        currentPeriodPriceCents: 9900,
        targetPeriodPriceCents: 34900,
      }),
    ).toEqual({
      unusedCreditCents: 4950,
      newChargeCents: 34900,
      amountDueNowCents: 29950,
      carriedCreditCents: 0,
    });
  });

  it('carries credit beyond the new charge', () => {
    expect(
      prorate({
        periodStart,
        periodEnd,
        now: periodStart,
        currentPeriodPriceCents: 34900,
        targetPeriodPriceCents: 0,
      }),
    ).toEqual({
      unusedCreditCents: 34900,
      newChargeCents: 0,
      amountDueNowCents: 0,
      carriedCreditCents: 34900,
    });
  });

  it('credits nothing once the period is over', () => {
    expect(
      prorate({
        periodStart,
        periodEnd,
        now: new Date('2026-06-01T00:00:00Z'),
        currentPeriodPriceCents: 9900,
        targetPeriodPriceCents: 9900,
      }).unusedCreditCents,
    ).toBe(0);
  });
});
