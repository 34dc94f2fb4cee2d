import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { buildServer } from '../../server.js';
import {
  type DebianCluster,
  startPrimary,
  startReplica,
} from '../../test-support/debian-postgres.js';
import { type HaproxyForPostgres, startHaproxy } from '../../test-support/haproxy.js';
import { createTestContext } from '../../test-support/test-context.js';
import { waitFor } from '../../test-support/wait-for.js';
import {
  countOf,
  prepareWriteTarget,
  startWriteLoad,
  waitUntilReady,
  type WriteTarget,
} from '../../test-support/write-load.js';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import type { BusState } from './notification-bus.js';

// The server's PostgreSQL primary replaced under load, as Patroni or CloudNativePG do: Debian's
// PostgreSQL as the primary, a synchronous streaming replica made with `pg_basebackup -R`, both
// behind HAProxy at one address. The primary stops at once (immediate shutdown), the replica is
// promoted and HAProxy is repointed through its runtime API; the server must answer 503 with
// Retry-After in between (never 500), come back by itself on fresh connections (its prepared
// statements made again, its LISTEN connection re-established, the caches reset) and have lost
// no acknowledged write.
//
// Slow and multi-process (two PostgreSQL servers, HAProxy): it runs in CI's second half only,
// where DATABASE_URL is set (.ci/run; README's test section).
const servedName = 'flotilla-failover';

describe.runIf(process.env.DATABASE_URL)('failing over to a promoted replica', () => {
  let primary: DebianCluster | undefined;
  let replica: DebianCluster | undefined;
  let haproxy: HaproxyForPostgres | undefined;
  let direct: Database | undefined;
  let served: Database | undefined;
  let app: FastifyInstance | undefined;
  let ctx: AppContext;
  let url: string;
  let target: WriteTarget;

  beforeAll(async () => {
    primary = await startPrimary();
    await primary.sql('postgres', 'CREATE DATABASE "flotilla"');
    direct = openDatabase(primary.url('flotilla'), { max: 2 });
    await migrate(direct);
    replica = await startReplica(primary, 'replica1');
    // Synchronous: a commit is acknowledged once the replica has it (Patroni's synchronous_mode,
    // CloudNativePG's synchronous replicas); without it a failover may lose acknowledged writes.
    await primary.sql('postgres', `ALTER SYSTEM SET synchronous_standby_names = 'replica1'`);
    await primary.sql('postgres', 'SELECT pg_reload_conf()');
    const source = primary;
    await waitFor('the replica to be synchronous', async () => {
      const rows = await source.sql<{ sync_state: string }>(
        'postgres',
        'SELECT "sync_state" FROM pg_stat_replication',
      );
      return rows[0]?.sync_state === 'sync';
    });
    haproxy = await startHaproxy([
      { name: 'primary', port: primary.port, active: true },
      { name: 'replica', port: replica.port, active: false },
    ]);
    served = openDatabase(haproxy.via(primary.url('flotilla', { application_name: servedName })), {
      max: 10,
      connectTimeoutMs: 2_000,
    });
    ctx = createTestContext(served, { config: { notificationHeartbeatMs: 1_000 } });
    app = buildServer(ctx);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    target = await prepareWriteTarget(ctx, direct, url);
    await direct.close();
    direct = undefined;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await served?.close();
    await direct?.close();
    await haproxy?.close();
    await replica?.remove();
    await primary?.remove();
  });

  const read = (path: string) =>
    fetch(`${url}/v7/${path}`, { headers: { authorization: `Bearer ${target.token}` } });

  it('answers 503 during the switch and loses no acknowledged write', async () => {
    if (!primary || !replica || !haproxy) throw new Error('not set up');
    const states: BusState[] = [];
    ctx.notifications.onStateChange((state) => states.push(state));
    let resets = 0;
    const probe = ctx.notifications.listen(
      'flotilla_failover_probe',
      () => undefined,
      () => {
        resets += 1;
      },
    );
    await probe.ready;
    // Prepared reads on the old primary's connections (a kept shape is prepared).
    const fleetRead = `application(${target.fleetId})?$select=id,app_name`;
    for (let round = 0; round < 3; round++) expect((await read(fleetRead)).status).toBe(200);

    const load = startWriteLoad(target, 4);
    try {
      await load.until(() => load.acknowledged.length >= 20, 'writes before the switch', 60_000);
      await primary.stopImmediately();
      await load.until(() => countOf(load, 503) >= 3, '503s while no primary', 30_000);
      const during = await read(fleetRead);
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('5');

      await replica.sql('postgres', 'SELECT pg_promote(true, 60)');
      await haproxy.switchTo('replica', ['primary']);
      await waitUntilReady(url, 60_000);
      const before = load.acknowledged.length;
      await load.until(() => load.acknowledged.length >= before + 20, 'writes afterwards', 60_000);
    } finally {
      await load.stop();
    }
    expect(load.unexpected).toEqual([]);

    // The LISTEN connection went down and is listening again, on the new primary (it retries
    // on its own schedule, so the test waits for it); subscribers heard both resets (a cache
    // forgets what it knew).
    await waitFor(
      'the notification bus to listen again',
      () => states.includes('down') && ctx.notifications.state() === 'listening',
      60_000,
    );
    expect(states.lastIndexOf('listening')).toBeGreaterThan(states.indexOf('down'));
    await waitFor('both resets', () => resets >= 2);
    await ctx.notifications.sync(10_000);

    // Every pooled connection is new and the prepared reads are prepared again on them: a stale
    // statement name would fail ("prepared statement does not exist") and answer 500.
    for (let round = 0; round < 12; round++) expect((await read(fleetRead)).status).toBe(200);
    const sessions = await replica.sql<{ n: number }>(
      'flotilla',
      `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "application_name" = $1`,
      [servedName],
    );
    expect(sessions[0]?.n).toBeGreaterThan(0);

    const rows = await replica.sql<{ tag_key: string }>(
      'flotilla',
      'SELECT "tag_key" FROM "application_tag" WHERE "application" = $1',
      [target.fleetId],
    );
    const stored = new Set(rows.map((row) => row.tag_key));
    expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    probe.close();
  }, 240_000);
});
