import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from './api-client.js';
import { silentLogger } from './logger.js';
import { Scheduler } from './scheduler.js';
import { startSupervisorCheck, supervisorTargetOf } from './simulator-supervisor-check.js';
import { ManualClock } from './test-support/manual-clock.js';

const answer = (version: string | null): ApiResponse => ({
  status: 200,
  headers: new Headers(),
  body: {
    d: [
      { id: 1, should_be_managed_by__release: version === null ? [] : [{ raw_version: version }] },
    ],
  },
});

describe('the simulated supervisor release check', () => {
  it('reads the expanded release version, or null', () => {
    expect(supervisorTargetOf(answer('17.1.4').body)).toBe('17.1.4');
    expect(supervisorTargetOf(answer(null).body)).toBeNull();
    expect(supervisorTargetOf({ d: [] })).toBeNull();
    expect(supervisorTargetOf('nonsense')).toBeNull();
  });

  it('asks with the device key after the first delay, then every interval, until stopped', async () => {
    const clock = new ManualClock(0);
    const scheduler = new Scheduler(clock);
    const requests: ApiRequest[] = [];
    const applied: (string | null)[] = [];
    let version: string | null = null;
    const check = startSupervisorCheck({
      api: {
        request: async (request) => {
          requests.push(request);
          return answer(version);
        },
      },
      scheduler,
      logger: silentLogger,
      uuid: 'a'.repeat(32),
      deviceApiKey: 'device-key',
      intervalMs: 60_000,
      firstDelayMs: 5_000,
      apply: (found) => applied.push(found),
    });
    await clock.runFor(4_999);
    expect(requests).toHaveLength(0);
    await clock.runFor(1);
    expect(applied).toEqual([null]);
    expect(requests[0]).toMatchObject({ method: 'GET', token: 'device-key' });
    expect(decodeURIComponent(requests[0]?.path ?? '')).toContain(
      `uuid eq '${'a'.repeat(32)}'&$expand=should_be_managed_by__release($select=raw_version)`,
    );
    version = '17.1.4';
    await clock.runFor(60_000);
    expect(applied).toEqual([null, '17.1.4']);
    check.stop();
    await clock.runFor(600_000);
    expect(requests).toHaveLength(2);
  });
});
