import { describe, expect, it } from 'vitest';
import { clampPollInterval, pollIntervalLimits, pollIntervalVariable } from './poll-interval.js';

describe('the poll-interval rule', () => {
  it('reads whole milliseconds within the limits', () => {
    expect(clampPollInterval('60000')).toBe(60_000);
    expect(clampPollInterval(' 60000 ')).toBe(60_000);
    expect(clampPollInterval('1000')).toBe(pollIntervalLimits.minimumMs);
    expect(clampPollInterval('999999999999')).toBe(pollIntervalLimits.maximumMs);
  });

  it('reads nothing from a value that is no number', () => {
    expect(clampPollInterval(undefined)).toBeUndefined();
    expect(clampPollInterval('abc')).toBeUndefined();
    expect(clampPollInterval('1.5')).toBeUndefined();
    expect(clampPollInterval('-10000')).toBeUndefined();
    expect(clampPollInterval('1234567890123')).toBeUndefined();
  });

  it('takes the BALENA_ variable over the legacy RESIN_ one', () => {
    expect(
      pollIntervalVariable({
        RESIN_SUPERVISOR_POLL_INTERVAL: '20000',
        BALENA_SUPERVISOR_POLL_INTERVAL: '30000',
      }),
    ).toBe('30000');
    expect(pollIntervalVariable({ RESIN_SUPERVISOR_POLL_INTERVAL: '20000' })).toBe('20000');
    expect(pollIntervalVariable({})).toBeUndefined();
  });
});
