import { describe, expect, it } from 'vitest';
import type { Plan } from './catalogue.js';
import { computeCharges, peakOf } from './charges.js';

const prototype: Plan = {
  id: 2,
  title: 'Prototype',
  billingCode: 'prototype-v2',
  tierRank: 1,
  monthlyPrice: 9900,
  annualPrice: 106920,
  canSelfServe: true,
  isLegacy: false,
  additionalDevicePrice: 200,
  additionalMicroservicesDevicePrice: 300,
  billsSeats: true,
  features: { 'device:any': 20, 'member:any': 2 },
  support: { slug: 'community', title: 'Community', includesPrivateSupport: false },
};

const amounts = (usage: Record<string, number>, cycle: 'monthly' | 'annual' = 'monthly') =>
  Object.fromEntries(
    computeCharges(prototype, cycle, usage).lines.map((l) => [l.code, l.amountCents]),
  );

describe('computeCharges', () => {
  it('bills the plan alone within its included devices and members', () => {
    expect(
      amounts({ 'device:any': 20, 'device:microservices': 20, 'member:administrator': 2 }),
    ).toEqual({
      'prototype-v2': 9900,
    });
  });

  it('bills devices over the included quantity, the included ones covering multi-container devices first', () => {
    // 30 devices, 12 of them multi-container: the 20 included cover the 12 and 8 plain ones.
    expect(amounts({ 'device:any': 30, 'device:microservices': 12 })).toEqual({
      'prototype-v2': 9900,
      'device:any': 10 * 200,
    });
    // 25 multi-container devices: 5 over at the microservices price.
    expect(amounts({ 'device:any': 25, 'device:microservices': 25 })).toEqual({
      'prototype-v2': 9900,
      'device:microservices': 5 * 300,
    });
  });

  it('bills seats over the included members, the dearest covered first, observers free', () => {
    const usage = {
      'member:administrator': 1,
      'member:developer': 2,
      'member:operator': 1,
      'member:observer': 5,
      'member:member': 3,
    };
    // Included: the administrator and one developer; billed: a developer ($49) and an operator ($29).
    expect(amounts(usage)).toEqual({
      'prototype-v2': 9900,
      'member:developer': 4900,
      'member:operator': 2900,
    });
    expect(computeCharges(prototype, 'monthly', usage).overage).toEqual({
      'member:developer': 1,
      'member:operator': 1,
    });
  });

  it('bills an annual period at twelve months of per-month prices', () => {
    expect(amounts({ 'device:any': 21 }, 'annual')).toEqual({
      'prototype-v2': 106920,
      'device:any': 12 * 200,
    });
  });

  it('totals its lines', () => {
    expect(computeCharges(prototype, 'monthly', { 'device:any': 21 }).totalCents).toBe(9900 + 200);
  });
});

describe('peakOf', () => {
  it('keeps the highest value of each key over the days', () => {
    expect(peakOf([{ a: 1, b: 5 }, { a: 3 }, { b: 2, c: 1 }])).toEqual({ a: 3, b: 5, c: 1 });
  });
});
