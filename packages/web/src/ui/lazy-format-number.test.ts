import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildLazyFormatNumber } from './lazy-format-number.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('buildLazyFormatNumber', () => {
  it('makes no Intl.NumberFormat until a number is formatted, then one', () => {
    const RealNumberFormat = Intl.NumberFormat;
    let constructed = 0;
    // A subclass counts constructions and formats as the real one does.
    class CountingNumberFormat extends RealNumberFormat {
      constructor(...args: ConstructorParameters<typeof RealNumberFormat>) {
        super(...args);
        constructed += 1;
      }
    }
    vi.stubGlobal('Intl', { ...Intl, NumberFormat: CountingNumberFormat });
    const format = buildLazyFormatNumber('en-US');
    expect(constructed).toBe(0);
    expect(format(1234567)).toBe('1,234,567');
    expect(format(50)).toBe('50');
    expect(constructed).toBe(1);
  });

  it('formats what is not finite as text, as MUI does', () => {
    const format = buildLazyFormatNumber('en-US');
    expect(format(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(format(Number.NaN)).toBe('NaN');
  });

  it('falls back to plain numbers for a locale Intl refuses', () => {
    expect(buildLazyFormatNumber('not a locale!')(1234)).toBe('1234');
  });
});
