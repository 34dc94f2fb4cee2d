import { describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { StateReporter } from './current-state.js';
import { silentLogger } from './logger.js';
import type { DeviceInfo, DeviceMetrics } from './runtime/device-runtime.js';
import { Scheduler } from './scheduler.js';
import { ManualClock } from './test-support/manual-clock.js';

const uuid = 'd'.repeat(32);

type Sent = { at: number; body: Record<string, Record<string, unknown>> };

const setup = (statuses: number[] = []) => {
  const clock = new ManualClock(0);
  const sent: Sent[] = [];
  const fetchStub = (async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push({ at: clock.now(), body: JSON.parse(String(init?.body)) as Sent['body'] });
    const status = statuses.shift() ?? 200;
    const headers: Record<string, string> = status === 503 ? { 'retry-after': '30' } : {};
    return new Response(status === 200 ? '{}' : 'busy', { status, headers });
  }) as typeof fetch;
  const info: DeviceInfo = {
    status: 'Idle',
    os_version: 'balenaOS 6.0.13',
    supervisor_version: '17.1.0',
    ip_address: '192.168.1.2',
    mac_address: 'DC:A6:32:00:00:01',
    apps: {},
  };
  let cpu = 10;
  const metrics = async (): Promise<DeviceMetrics> => ({
    cpu_usage: cpu++,
    cpu_temp: 45,
    memory_usage: 500,
    memory_total: 4000,
    storage_usage: 1000,
    storage_total: 30_000,
    is_undervolted: false,
  });
  const reporter = new StateReporter({
    api: new ApiClient({ baseUrl: 'http://api.test', token: 'k', fetch: fetchStub, clock }),
    uuid,
    scheduler: new Scheduler(clock),
    random: () => 0,
    logger: silentLogger,
    info: () => info,
    metrics,
  });
  const advance = async (ms: number): Promise<void> => {
    clock.advance(ms);
    for (let index = 0; index < 10; index++) await new Promise((resolve) => setImmediate(resolve));
    await reporter.settled();
  };
  return { clock, sent, info, reporter, advance };
};

describe('StateReporter', () => {
  it('sends everything first, then only changes, at most every 10 s', async () => {
    const { sent, info, reporter, advance } = setup();
    reporter.start();
    await advance(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body[uuid]).toMatchObject({
      status: 'Idle',
      os_version: 'balenaOS 6.0.13',
      ip_address: '192.168.1.2',
      cpu_usage: 10,
      memory_total: 4000,
    });

    info.status = 'Downloading';
    reporter.changed();
    info.ip_address = '192.168.1.3';
    reporter.changed();
    await advance(9_999);
    expect(sent).toHaveLength(1);
    await advance(1);
    expect(sent).toHaveLength(2);
    // Only what changed, and no metrics before their 5 minutes are up.
    expect(sent[1]).toEqual({
      at: 10_000,
      body: { [uuid]: { status: 'Downloading', ip_address: '192.168.1.3' } },
    });

    // Nothing changed: no request at all.
    reporter.changed();
    await advance(20_000);
    expect(sent).toHaveLength(2);
  });

  it('adds metrics every 300 s even when nothing else changed', async () => {
    const { sent, reporter, advance } = setup();
    reporter.start();
    await advance(0);
    await advance(299_000);
    expect(sent).toHaveLength(1);
    await advance(1000);
    expect(sent).toHaveLength(2);
    expect(Object.keys(sent[1]?.body[uuid] ?? {})).toEqual(['cpu_usage']);
    expect(sent[1]?.at).toBe(300_000);
  });

  it('keeps changes after a failure and retries no sooner than Retry-After', async () => {
    const { sent, info, reporter, advance } = setup([200, 503]);
    reporter.start();
    await advance(0);
    info.status = 'Installing';
    reporter.changed();
    await advance(10_000);
    expect(sent).toHaveLength(2);
    await advance(29_000);
    expect(sent).toHaveLength(2);
    await advance(1000);
    expect(sent).toHaveLength(3);
    expect(sent[2]?.body[uuid]).toEqual({ status: 'Installing' });
    expect(reporter.reports).toBe(2);
  });
});
