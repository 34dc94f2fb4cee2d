import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { silentLogger } from './logger.js';
import { Scheduler } from './scheduler.js';
import { TargetStatePoller } from './target-state.js';
import type { DeviceTarget } from './target-types.js';
import { FakeApi, json } from './test-support/fake-api.js';
import { ManualClock } from './test-support/manual-clock.js';

const uuid = 'c'.repeat(32);

const targetBody = (commit: string, config: Record<string, string> = {}): unknown => ({
  [uuid]: {
    name: 'misty-river',
    config,
    apps: {
      hostapp: { id: 1, name: 'balenaOS', class: 'fleet', is_host: true, releases: {} },
      appuuid: {
        id: 7,
        name: 'demo',
        class: 'fleet',
        releases: {
          [commit]: {
            id: 70,
            services: {
              web: {
                id: 5,
                image_id: 50,
                image: 'registry/web@sha256:abc',
                environment: {},
                labels: {},
              },
            },
          },
        },
      },
    },
  },
});

describe('TargetStatePoller', () => {
  let api: FakeApi;
  beforeEach(async () => {
    api = await new FakeApi().listen();
  });
  afterEach(() => api.close());

  it('sends the ETag back in If-None-Match and treats 304 as nothing to do', async () => {
    let commit = 'commit-a';
    api.on((request, response) => {
      if (request.path !== `/device/v3/${uuid}/state`) return;
      const etag = `"${commit}"`;
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304, { etag }).end();
        return true;
      }
      return json(response, 200, targetBody(commit), { etag });
    });
    const targets: DeviceTarget[] = [];
    const poller = new TargetStatePoller({
      api: new ApiClient({ baseUrl: api.url, token: 'device-key' }),
      uuid,
      scheduler: new Scheduler(new ManualClock()),
      random: () => 0.5,
      pollIntervalMs: () => 10_000,
      onTarget: (target) => targets.push(target),
      logger: silentLogger,
    });

    expect(await poller.poll()).toBe('changed');
    expect(poller.etag).toBe('"commit-a"');
    expect(targets[0]).toMatchObject({
      name: 'misty-river',
      app: {
        uuid: 'appuuid',
        id: 7,
        release: { commit: 'commit-a', services: [{ name: 'web', imageId: 50 }] },
      },
    });
    expect(await poller.poll()).toBe('unchanged');
    expect(api.requests[1]?.headers['if-none-match']).toBe('"commit-a"');
    expect(api.requests[1]?.headers.authorization).toBe('Bearer device-key');
    expect(targets).toHaveLength(1);

    commit = 'commit-b';
    expect(await poller.poll()).toBe('changed');
    expect(targets[1]?.app?.release?.commit).toBe('commit-b');
    // A forced poll (the update action) asks for the full state.
    expect(await poller.poll(true)).toBe('changed');
    expect(api.requests.at(-1)?.headers['if-none-match']).toBeUndefined();
  });
});

describe('TargetStatePoller scheduling', () => {
  const fakeFetch = (statuses: number[], calls: number[], clock: ManualClock): typeof fetch =>
    (async () => {
      calls.push(clock.now());
      const status = statuses.shift() ?? 304;
      const headers: Record<string, string> =
        status === 429 ? { 'retry-after': '120' } : { etag: '"e"' };
      const body = status === 200 ? JSON.stringify(targetBody('c1')) : null;
      return new Response(body, {
        status,
        headers: { 'content-type': 'application/json', ...headers },
      });
    }) as typeof fetch;

  const settle = async (): Promise<void> => {
    for (let index = 0; index < 10; index++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('polls at the interval with early jitter, backs off on errors and honours Retry-After', async () => {
    const clock = new ManualClock(0);
    const calls: number[] = [];
    const poller = new TargetStatePoller({
      api: new ApiClient({
        baseUrl: 'http://api.test',
        fetch: fakeFetch([200, 304, 500, 500, 429, 304], calls, clock),
      }),
      uuid,
      scheduler: new Scheduler(clock),
      random: () => 0,
      pollIntervalMs: () => 60_000,
      onTarget: () => undefined,
      logger: silentLogger,
      errorBackoff: { baseMs: 1000 },
    });
    poller.start();
    const step = async (ms: number): Promise<void> => {
      clock.advance(ms);
      await settle();
    };
    await step(0);
    expect(calls).toEqual([0]);
    // random 0 → the earliest point of the jitter window, 85 % of the interval.
    await step(51_000);
    expect(calls).toEqual([0, 51_000]);
    await step(51_000);
    expect(calls.at(-1)).toBe(102_000);
    // 500: first backoff delay is half of 1 s (equal jitter with random 0), then 1 s.
    await step(500);
    expect(calls.at(-1)).toBe(102_500);
    await step(1000);
    expect(calls.at(-1)).toBe(103_500);
    // 429 Retry-After: 120 s is longer than the backoff, so it wins.
    await step(119_000);
    expect(calls).toHaveLength(5);
    await step(1000);
    expect(calls.at(-1)).toBe(223_500);
    poller.stop();
  });
});
