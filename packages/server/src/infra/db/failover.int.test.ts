import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  failOver,
  type FailoverWorld,
  startFailoverWorld,
} from '../../test-support/failover-world.js';
import { startHaproxy } from '../../test-support/haproxy.js';

// The failover (test-support/failover-world.ts) with HAProxy at the one address: both servers
// health-checked, the replica disabled until the switch, which goes through HAProxy's runtime
// API (the replica made ready, the old primary put in maintenance and its sessions cut).
//
// Slow and multi-process (two PostgreSQL servers, HAProxy): it runs in CI's second half only,
// where DATABASE_URL is set (.ci/run; README's test section).
describe.runIf(process.env.DATABASE_URL)(
  'failing over to a promoted replica behind HAProxy',
  () => {
    let world: FailoverWorld | undefined;

    beforeAll(async () => {
      world = await startFailoverWorld(async (primary, replica) => {
        const haproxy = await startHaproxy([
          { name: 'primary', port: primary.port, active: true },
          { name: 'replica', port: replica.port, active: false },
        ]);
        return {
          via: (url) => haproxy.via(url),
          switchToReplica: () => haproxy.switchTo('replica', ['primary']),
          close: () => haproxy.close(),
        };
      });
    }, 180_000);

    afterAll(async () => {
      await world?.close();
    });

    it('answers 503 during the switch and loses no acknowledged write', async () => {
      if (!world) throw new Error('not set up');
      await failOver(world);
    }, 240_000);
  },
);
