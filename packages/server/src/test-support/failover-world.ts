import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../app-context.js';
import { openDatabase } from '../infra/db/database.js';
import { migrate } from '../infra/db/migrate.js';
import type { BusState } from '../infra/db/notification-bus.js';
import { buildServer } from '../server.js';
import { type DebianCluster, startPrimary, startReplica } from './debian-postgres.js';
import { createTestContext } from './test-context.js';
import { waitFor } from './wait-for.js';
import {
  countOf,
  prepareWriteTarget,
  startWriteLoad,
  waitUntilReady,
  type WriteTarget,
} from './write-load.js';

// The server's PostgreSQL primary replaced under load, as Patroni or CloudNativePG do: Debian's
// PostgreSQL as the primary, a synchronous streaming replica made with `pg_basebackup -R`, both
// reached at one address through a front (HAProxy, PgBouncer). The primary stops at once
// (immediate shutdown), the replica is promoted and the front is repointed to it; the server must
// answer 503 with Retry-After in between (never 500), come back by itself on fresh connections
// (its prepared statements made again, its LISTEN connection re-established, the caches reset)
// and have lost no acknowledged write. Each front's test file runs failOver().

// What stands at the one address the server is given.
export type DatabaseFront = {
  // The same connection URL, through the front.
  via(url: string): string;
  // Sends new sessions to the promoted replica, and cuts those to the old primary.
  switchToReplica(): Promise<void>;
  close(): Promise<void>;
};

export type FailoverWorld<Front extends DatabaseFront = DatabaseFront> = {
  primary: DebianCluster;
  replica: DebianCluster;
  front: Front;
  ctx: AppContext;
  // The server's application_name in pg_stat_activity.
  servedName: string;
  target: WriteTarget;
  // GET /v7/<path> as the target's administrator.
  read(path: string): Promise<Response>;
  close(): Promise<void>;
};

export const startFailoverWorld = async <Front extends DatabaseFront>(
  startFront: (primary: DebianCluster, replica: DebianCluster) => Promise<Front>,
): Promise<FailoverWorld<Front>> => {
  const servedName = 'flotilla-failover';
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    const primary = await startPrimary();
    closers.push(() => primary.remove());
    await primary.sql('postgres', 'CREATE DATABASE "flotilla"');
    // Set-up only: closed before the primary goes away.
    const direct = openDatabase(primary.url('flotilla'), { max: 2 });
    let directOpen = true;
    const closeDirect = async (): Promise<void> => {
      if (!directOpen) return;
      directOpen = false;
      await direct.close();
    };
    closers.push(closeDirect);
    await migrate(direct);
    const replica = await startReplica(primary, 'replica1');
    closers.push(() => replica.remove());
    // Synchronous: a commit is acknowledged once the replica has it (Patroni's synchronous_mode,
    // CloudNativePG's synchronous replicas); without it a failover may lose acknowledged writes.
    await primary.sql('postgres', `ALTER SYSTEM SET synchronous_standby_names = 'replica1'`);
    await primary.sql('postgres', 'SELECT pg_reload_conf()');
    await waitFor('the replica to be synchronous', async () => {
      const rows = await primary.sql<{ sync_state: string }>(
        'postgres',
        'SELECT "sync_state" FROM pg_stat_replication',
      );
      return rows[0]?.sync_state === 'sync';
    });
    const front = await startFront(primary, replica);
    closers.push(() => front.close());
    const served = openDatabase(
      front.via(primary.url('flotilla', { application_name: servedName })),
      { max: 10, connectTimeoutMs: 2_000 },
    );
    closers.push(() => served.close());
    const ctx = createTestContext(served, { config: { notificationHeartbeatMs: 1_000 } });
    const app: FastifyInstance = buildServer(ctx);
    closers.push(() => app.close());
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const target = await prepareWriteTarget(ctx, direct, url);
    await closeDirect();
    const read = (path: string): Promise<Response> =>
      fetch(`${url}/v7/${path}`, { headers: { authorization: `Bearer ${target.token}` } });
    return { primary, replica, front, ctx, servedName, target, read, close };
  } catch (error) {
    await close();
    throw error;
  }
};

// The failover itself, with its checks.
export const failOver = async (world: FailoverWorld): Promise<void> => {
  const { primary, replica, front, ctx, target, read } = world;
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
    await front.switchToReplica();
    await waitUntilReady(target.baseUrl, 60_000);
    const before = load.acknowledged.length;
    await load.until(() => load.acknowledged.length >= before + 20, 'writes afterwards', 60_000);
  } finally {
    await load.stop();
  }
  expect(load.unexpected).toEqual([]);

  // The LISTEN connection went down and is listening again, on the new primary (it retries on
  // its own schedule, so the test waits for it); subscribers heard both resets (a cache forgets
  // what it knew).
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
    [world.servedName],
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
};
