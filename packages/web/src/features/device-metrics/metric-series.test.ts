import { describe, expect, it } from 'vitest';
import { periodOf, withGaps } from './metric-series.js';

const at = (minutes: number, value = 1) => ({ at: minutes * 60_000, value });
const gap = (minutes: number) => ({ at: minutes * 60_000, value: null });

describe('metric series', () => {
  it('breaks the line where the device was silent for longer than the gap', () => {
    const values = [at(0), at(5), at(10), at(60), at(65), at(200)];
    expect(withGaps(values, 15 * 60_000)).toEqual([
      at(0),
      at(5),
      at(10),
      gap(35),
      at(60),
      at(65),
      gap(132.5),
      at(200),
    ]);
    expect(withGaps([], 1)).toEqual([]);
  });

  it('names the period of a history', () => {
    expect(periodOf(0, 24 * 3_600_000)).toBe('24 hours');
    expect(periodOf(0, 3_600_000)).toBe('hour');
    expect(periodOf(0, 90 * 60_000)).toBe('90 minutes');
  });
});
