import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failOver,
  type FailoverWorld,
  startFailoverWorld,
} from '../../test-support/failover-world.js';
import { type PgbouncerForPostgres, startPgbouncer } from '../../test-support/pgbouncer.js';
import { waitFor } from '../../test-support/wait-for.js';

// The failover (test-support/failover-world.ts) with PgBouncer at the one address, in session
// pooling mode: first the server at work through it (prepared reads, LISTEN/NOTIFY), then the
// primary replaced, PgBouncer repointed to the promoted replica by rewriting its configuration
// between KILL and RESUME (docs/FAILOVER.md, "PgBouncer").
//
// Slow and multi-process (two PostgreSQL servers, PgBouncer): it runs in CI's second half only,
// where DATABASE_URL is set (.ci/run; README's test section).
describe.runIf(process.env.DATABASE_URL)(
  'failing over to a promoted replica behind PgBouncer',
  () => {
    let world:
      FailoverWorld<PgbouncerForPostgres & { switchToReplica(): Promise<void> }> | undefined;

    beforeAll(async () => {
      world = await startFailoverWorld(async (primary, replica) => {
        const pgbouncer = await startPgbouncer({ database: 'flotilla', serverPort: primary.port });
        return { ...pgbouncer, switchToReplica: () => pgbouncer.repoint(replica.port) };
      });
    }, 180_000);

    afterAll(async () => {
      await world?.close();
    });

    it('serves reads and notifications through session pooling', async () => {
      if (!world) throw new Error('not set up');
      const { primary, front, ctx, target, read, servedName } = world;
      // A kept shape is prepared on its connection: the same statement name works again.
      const fleetRead = `application(${target.fleetId})?$select=id,app_name`;
      for (let round = 0; round < 6; round++) expect((await read(fleetRead)).status).toBe(200);

      // NOTIFY from a session of another client reaches the LISTEN connection through PgBouncer.
      const heard: string[] = [];
      const subscription = ctx.notifications.listen('flotilla_pgbouncer_probe', (payload) => {
        heard.push(payload);
      });
      await subscription.ready;
      await primary.sql('flotilla', `SELECT pg_notify('flotilla_pgbouncer_probe', 'through')`);
      await waitFor('the notification', () => heard.includes('through'));
      subscription.close();

      // Every session of the server's on the primary is one of PgBouncer's server connections.
      const sessions = await primary.sql<{ pid: number }>(
        'flotilla',
        'SELECT "pid" FROM pg_stat_activity WHERE "application_name" = $1',
        [servedName],
      );
      const servers = await front.admin<{ remote_pid: number }>('SHOW SERVERS');
      expect(sessions.length).toBeGreaterThan(1);
      const pooled = new Set(servers.map((server) => Number(server.remote_pid)));
      expect(sessions.filter((session) => !pooled.has(session.pid))).toEqual([]);
    }, 60_000);

    it('answers 503 during the switch and loses no acknowledged write', async () => {
      if (!world) throw new Error('not set up');
      await failOver(world);
    }, 240_000);
  },
);
