import { describe, expect, it } from 'vitest';
import { defaultRestartPolicy, failuresAfterRun, restartDelayMs } from './restart-policy.js';

describe('restart policy of the embedded PostgreSQL', () => {
  it('doubles the delay with each failure in a row, up to the ceiling', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map((failures) => restartDelayMs(failures))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('forgets earlier failures after a run that lasted', () => {
    const { stableAfterMs } = defaultRestartPolicy;
    expect(failuresAfterRun(4, stableAfterMs)).toBe(0);
    expect(failuresAfterRun(4, stableAfterMs - 1)).toBe(4);
  });
});
