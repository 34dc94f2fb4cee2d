import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server.js';
import {
  type DebianCluster,
  startPrimary,
  startReplica,
} from '../../test-support/debian-postgres.js';
import { createFleet } from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { waitFor } from '../../test-support/wait-for.js';
import { prepareWriteTarget, type WriteTarget } from '../../test-support/write-load.js';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { createReadRouting, type ReadRouting } from './read-routing.js';

// Heavy console reads on a streaming replica of Debian's PostgreSQL (FLOTILLA_DATABASE_READ_URL):
// a signed-in person's data API reads reach it while it is within the staleness bound, and the
// primary answers them when it lags (replay paused), is down, or lacks the reader's own write.
// The routing's clock is a fake one: the bound is crossed by moving it, not by waiting.
// Two PostgreSQL servers: CI's second half only, as the failover test (.ci/run).
const replicaName = 'flotilla-replica-reads';
const maxLagMs = 5_000;

describe.runIf(process.env.DATABASE_URL)('reads on a read replica', () => {
  let primary: DebianCluster | undefined;
  let replica: DebianCluster | undefined;
  let db: Database | undefined;
  let replicaDb: Database | undefined;
  let app: FastifyInstance | undefined;
  let routing: ReadRouting;
  let clock = 0;
  let target: WriteTarget;
  let organizationId: number;

  beforeAll(async () => {
    primary = await startPrimary();
    await primary.sql('postgres', 'CREATE DATABASE "flotilla"');
    db = openDatabase(primary.url('flotilla'), { max: 5 });
    await migrate(db);
    replica = await startReplica(primary, 'replica1');
    replicaDb = openDatabase(replica.url('flotilla', { application_name: replicaName }), {
      max: 3,
      connectTimeoutMs: 2_000,
    });
    routing = createReadRouting(db, replicaDb, {
      maxLagMs,
      checkIntervalMs: 60_000,
      now: () => clock,
    });
    const ctx = createTestContext(db, { readRouting: routing });
    app = buildServer(ctx);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    target = await prepareWriteTarget(ctx, db, url);
    const { rows } = await db.query<{ organization: number }>(
      'SELECT "organization" FROM "application" WHERE "id" = $1',
      [target.fleetId],
    );
    organizationId = rows[0]?.organization ?? 0;
    const users = await db.query<{ id: number }>(
      `SELECT "id" FROM "user" WHERE "username" = 'writer'`,
    );
    userId = users.rows[0]?.id ?? 0;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await replicaDb?.close();
    await db?.close();
    await replica?.remove();
    await primary?.remove();
  });

  let userId: number;
  const reader = (): string => `user:${userId}`;
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(`${target.baseUrl}/v7/${path}`, {
      headers: { authorization: `Bearer ${target.token}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { d: unknown }).d;
  };
  const fleetCount = () => get('application/$count');
  // The checks the timer would run, until the replica has caught up with the primary.
  const caughtUp = () =>
    waitFor('the replica to catch up', async () => {
      await routing.check();
      return routing.status().stalenessMs === 0;
    });
  // How many statements of the data API the replica has run for this test's sessions.
  const replicaReads = async (): Promise<number> => {
    const rows = await replica?.sql<{ n: number }>(
      'postgres',
      `SELECT count(*)::int AS "n" FROM pg_stat_activity
        WHERE "application_name" = $1 AND "query" LIKE '%"application"%'`,
      [replicaName],
    );
    return rows?.[0]?.n ?? 0;
  };

  it('sends a signed-in person’s reads to the replica while it is fresh', async () => {
    await caughtUp();
    expect(routing.readerFor(reader())).not.toBe(db);
    expect(await fleetCount()).toBe(1);
    expect(await replicaReads()).toBeGreaterThan(0);
    // Devices, fleet keys and anonymous callers always read the primary.
    expect(routing.readerFor(undefined)).toBe(db);
  });

  it('falls back to the primary when the replica lags past the bound', async () => {
    await caughtUp();
    await replica?.sql('postgres', 'SELECT pg_wal_replay_pause()');
    try {
      if (!db) throw new Error('not set up');
      await createFleet(db, organizationId, 'second');
      clock += maxLagMs + 1;
      await routing.check();
      // Not caught up since before the bound: the primary answers, with the new fleet.
      expect(routing.readerFor(reader())).toBe(db);
      expect(await fleetCount()).toBe(2);
    } finally {
      await replica?.sql('postgres', 'SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
    expect(routing.readerFor(reader())).not.toBe(db);
    expect(await fleetCount()).toBe(2);
  });

  it('reads a person’s own write from the primary until the replica has it', async () => {
    await caughtUp();
    await replica?.sql('postgres', 'SELECT pg_wal_replay_pause()');
    try {
      const response = await fetch(`${target.baseUrl}/v7/application_tag`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ application: target.fleetId, tag_key: 'mine', value: 'written' }),
      });
      expect(response.status).toBe(201);
      // Still within the bound, but the replica (paused) lacks the write: the primary answers.
      expect(routing.readerFor(reader())).toBe(db);
      expect(await get(`application_tag?$filter=tag_key eq 'mine'&$select=tag_key`)).toEqual([
        { tag_key: 'mine' },
      ]);
    } finally {
      await replica?.sql('postgres', 'SELECT pg_wal_replay_resume()');
    }
    // Caught up after the write (the fake clock moved on): the replica again.
    clock += 1;
    await caughtUp();
    expect(routing.readerFor(reader())).not.toBe(db);
  });

  it('falls back to the primary when the replica is down', async () => {
    await caughtUp();
    await replica?.stopImmediately();
    // Before any check notices: the read fails over to the primary instead of failing.
    expect(await fleetCount()).toBe(2);
    await expect(routing.check()).rejects.toThrow();
    expect(routing.status().reachable).toBe(false);
    expect(routing.readerFor(reader())).toBe(db);
    expect(await fleetCount()).toBe(2);
  });
});
