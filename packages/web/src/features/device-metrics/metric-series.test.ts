import { describe, expect, it } from 'vitest';
import { periodOf, segments } from './metric-series.js';

const at = (minutes: number, value = 1) => ({ at: minutes * 60_000, value });

describe('metric series', () => {
  it('splits readings where the device was silent for longer than the gap', () => {
    const values = [at(0), at(5), at(10), at(60), at(65), at(200)];
    expect(segments(values, 15 * 60_000)).toEqual([
      [at(0), at(5), at(10)],
      [at(60), at(65)],
      [at(200)],
    ]);
    expect(segments([], 1)).toEqual([]);
  });

  it('names the period of a history', () => {
    expect(periodOf(0, 24 * 3_600_000)).toBe('24 hours');
    expect(periodOf(0, 3_600_000)).toBe('hour');
    expect(periodOf(0, 90 * 60_000)).toBe('90 minutes');
  });
});
