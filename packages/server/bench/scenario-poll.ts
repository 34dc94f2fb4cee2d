import type { RequestSpec } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import { bearer, forEachLimited, get, runSets, throughputRatio } from './scenario-helpers.js';

// Target-state polls answered 304: every device polls with the ETag of its last answer, as the
// supervisor does between releases, round-robin over the devices (each poll is also the device's
// heartbeat, written at most once per 10 s per device). The reference is the floor of any route:
// GET /hello on the bare Fastify app. Eight connections (BENCH_CONCURRENCY), as the issue that set
// the goal measured it: a real fleet's polls arrive spread out, not 32 at a time per connection pool.

const etags = new Map<number, string>();

const prime = async (env: BenchEnv): Promise<void> => {
  await forEachLimited(env.devices, 16, async (device) => {
    const response = await fetch(`${env.flotilla.url}/device/v3/${device.uuid}/state`, {
      headers: bearer(device.key),
    });
    await response.arrayBuffer();
    const etag = response.headers.get('etag');
    if (response.status !== 200 || etag === null) {
      throw new Error(`first poll of ${device.uuid} answered ${response.status} without an ETag`);
    }
    etags.set(device.id, etag);
  });
};

const pollSets = (env: BenchEnv): RequestSpec[][] =>
  env.devices.map((device) => [
    {
      ...get(`/device/v3/${device.uuid}/state`, {
        ...bearer(device.key),
        'if-none-match': etags.get(device.id) ?? '',
      }),
      expect: [304],
    },
  ]);

export const pollScenario: Scenario = {
  id: 'poll',
  rows: [
    throughputRatio(
      'target-state poll answered 304 (each device its own key and ETag; vs GET /hello)',
      'req/s',
      0.8,
    ),
  ],
  prepare: prime,
  sample: (env) => pollSets(env)[0]?.[0] ?? get('/ping'),
  measure(side, env, window) {
    const sets = side === 'flotilla' ? pollSets(env) : [[get('/hello')]];
    return runSets(env, side, sets, env.options.concurrency, window);
  },
};
