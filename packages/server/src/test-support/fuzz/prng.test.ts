import { describe, expect, it } from 'vitest';
import { createRandom } from './prng.js';

describe('createRandom', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const sequence = (seed: number): number[] => {
      const random = createRandom(seed);
      return Array.from({ length: 5 }, () => random.int(0, 1_000_000));
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
  });

  it('stays within its bounds', () => {
    const random = createRandom(1);
    for (let i = 0; i < 1000; i++) {
      const value = random.int(-3, 3);
      expect(value).toBeGreaterThanOrEqual(-3);
      expect(value).toBeLessThanOrEqual(3);
    }
  });
});
