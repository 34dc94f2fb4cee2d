import { describe, expect, it } from 'vitest';
import { isValidRate, salesTaxDescription, salesTaxOf, usStateCode } from './sales-tax.js';

describe('US sales tax', () => {
  const rates = { CA: 7.25, NY: 8.875, OR: 0 };

  it('reads a state as customers type it', () => {
    expect(usStateCode('CA')).toBe('CA');
    expect(usStateCode(' ca ')).toBe('CA');
    expect(usStateCode('California')).toBe('CA');
    expect(usStateCode('new  york')).toBe('NY');
    expect(usStateCode('District of Columbia')).toBe('DC');
    expect(usStateCode('Bavaria')).toBeUndefined();
    expect(usStateCode(undefined)).toBeUndefined();
  });

  it("taxes a US address at its state's rate, rounded to the cent", () => {
    expect(salesTaxOf({ country: 'US', state: 'CA' }, rates, 34_900)).toEqual({
      state: 'CA',
      ratePercent: 7.25,
      taxCents: 2530,
    });
    // 8.875 % of $10.00 is 88.75 cents: rounded half up, exactly.
    expect(salesTaxOf({ country: 'us', state: 'New York' }, rates, 1000)?.taxCents).toBe(89);
  });

  it('adds nothing outside the US, without a rate, at 0 % or on a credit', () => {
    expect(salesTaxOf({ country: 'DE', state: 'CA' }, rates, 10_000)).toBeUndefined();
    expect(salesTaxOf({ state: 'CA' }, rates, 10_000)).toBeUndefined();
    expect(salesTaxOf({ country: 'US', state: 'TX' }, rates, 10_000)).toBeUndefined();
    expect(salesTaxOf({ country: 'US', state: 'OR' }, rates, 10_000)).toBeUndefined();
    expect(salesTaxOf({ country: 'US', state: 'CA' }, rates, 0)).toBeUndefined();
    expect(salesTaxOf({ country: 'US', state: 'CA' }, rates, -500)).toBeUndefined();
  });

  it("falls back on the rate for every state, and a state's own rate wins", () => {
    const everywhere = { '*': 5, CA: 7.25 };
    expect(salesTaxOf({ country: 'US', state: 'TX' }, everywhere, 10_000)).toEqual({
      state: 'TX',
      ratePercent: 5,
      taxCents: 500,
    });
    const unknown = salesTaxOf({ country: 'US', state: '' }, everywhere, 10_000);
    expect(unknown).toEqual({ state: '*', ratePercent: 5, taxCents: 500 });
    expect(unknown && salesTaxDescription(unknown)).toBe('Sales tax (US, 5%)');
    expect(salesTaxOf({ country: 'US', state: 'ca' }, everywhere, 10_000)?.taxCents).toBe(725);
  });

  it('accepts rates from 0 to 100 with at most three decimals', () => {
    expect(isValidRate(8.875)).toBe(true);
    expect(isValidRate(1.005)).toBe(true);
    expect(isValidRate(0)).toBe(true);
    expect(isValidRate(100)).toBe(true);
    expect(isValidRate(8.8751)).toBe(false);
    expect(isValidRate(-1)).toBe(false);
    expect(isValidRate(101)).toBe(false);
    expect(isValidRate(Number.NaN)).toBe(false);
  });
});
