import { describe, expect, it } from 'vitest';
import {
  additionalCreditsNeeded,
  countsTowardBalance,
  defaultCreditThreshold,
  supportsCredits,
} from './credits.js';
import { freezesAt, pastDueNotice } from './freezing.js';

describe('the runway formula', () => {
  it('is ceil((current + estimated - included) x months / 2) minus the balance', () => {
    expect(
      additionalCreditsNeeded({
        currentDevices: 55,
        estimatedDevices: 1,
        includedDevices: 50,
        months: 12,
        balance: 10,
      }),
    ).toBe(26);
    expect(
      additionalCreditsNeeded({
        currentDevices: 50,
        estimatedDevices: 1,
        includedDevices: 50,
        months: 3,
        balance: 0,
      }),
    ).toBe(2);
  });

  it('never goes below 0 and caps the months at 120', () => {
    const base = { currentDevices: 60, estimatedDevices: 0, includedDevices: 50, balance: 0 };
    expect(additionalCreditsNeeded({ ...base, balance: 1000, months: 12 })).toBe(0);
    expect(additionalCreditsNeeded({ ...base, currentDevices: 3, months: 12 })).toBe(0);
    expect(additionalCreditsNeeded({ ...base, months: 500 })).toBe(600);
  });
});

describe('credit rules', () => {
  it('counts paid, complimentary and manually invoiced bundles only', () => {
    expect(['paid', 'complimentary', 'manually invoiced'].every(countsTowardBalance)).toBe(true);
    expect(['processing', 'failed', 'cancelled', 'refunded'].some(countsTowardBalance)).toBe(false);
  });

  it('sells credits on pilot, production and enterprise only', () => {
    expect(['pilot-v2', 'production-v2', 'enterprise-v2'].every(supportsCredits)).toBe(true);
    expect(['free', 'prototype-v2', 'custom'].some(supportsCredits)).toBe(false);
  });

  it('defaults the low-credit threshold to twice the device count', () => {
    expect(defaultCreditThreshold(7)).toBe(14);
  });
});

describe('past-due notices', () => {
  const since = new Date('2026-01-01T00:00:00Z');
  const day = (n: number) => new Date(since.getTime() + n * 86_400_000);

  it('warns under 30 days, counts down from 30 and freezes at 60', () => {
    expect(pastDueNotice(null, day(5))).toBeUndefined();
    expect(pastDueNotice(since, day(29))).toEqual({ severity: 'warning', daysPastDue: 29 });
    expect(pastDueNotice(since, day(30))).toEqual({
      severity: 'error',
      daysPastDue: 30,
      daysUntilFreeze: 30,
    });
    expect(pastDueNotice(since, day(59))?.severity).toBe('error');
    expect(pastDueNotice(since, day(60))).toEqual({ severity: 'frozen', daysPastDue: 60 });
    expect(freezesAt(since)).toEqual(day(60));
  });
});
