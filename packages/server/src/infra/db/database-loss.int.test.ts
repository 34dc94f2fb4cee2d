import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import {
  countOf,
  prepareWriteTarget,
  startWriteLoad,
  waitUntilReady,
  type WriteTarget,
} from '../../test-support/write-load.js';
import { type Database, openDatabase } from './database.js';

// The server on a database it does not run (the run's PostgreSQL: embedded, or CI's external
// one), reached through a TCP proxy the test cuts: it cannot restart anything, but it must keep
// running, answer 503 while the database is away, and recover alone when it is back.
const servedName = 'flotilla-served';

describe('losing an external PostgreSQL', () => {
  let direct: Database;
  let proxy: TcpProxy;
  let served: Database;
  let app: FastifyInstance;
  let url: string;
  let target: WriteTarget;

  beforeAll(async () => {
    direct = await createTestDatabase();
    proxy = await startTcpProxy(direct.url);
    // Named, so the test can end exactly the served sessions.
    const servedUrl = new URL(proxy.via(direct.url));
    servedUrl.searchParams.set('application_name', servedName);
    served = openDatabase(servedUrl.toString(), { max: 10, connectTimeoutMs: 2_000 });
    const ctx = createTestContext(served);
    app = buildServer(ctx);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    target = await prepareWriteTarget(ctx, direct, url);
  });

  afterAll(async () => {
    await app?.close();
    await served?.close();
    await proxy?.close();
    await direct?.close();
  });

  const storedKeys = async (): Promise<Set<string>> => {
    const { rows } = await direct.query<{ tag_key: string }>(
      'SELECT "tag_key" FROM "application_tag" WHERE "application" = $1',
      [target.fleetId],
    );
    return new Set(rows.map((row) => row.tag_key));
  };

  it('answers 503 with Retry-After while it is cut off, and recovers by itself', async () => {
    const load = startWriteLoad(target, 4);
    try {
      await load.until(() => load.acknowledged.length >= 20, 'writes before the cut', 30_000);
      proxy.cut();
      await load.until(() => countOf(load, 503) >= 5, '503s while cut off', 30_000);

      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      const read = await fetch(`${url}/v7/application(${target.fleetId})`, {
        headers: { authorization: `Bearer ${target.token}` },
      });
      expect(read.status).toBe(503);
      expect(await read.text()).toBe('The database is unavailable; try again shortly');
      // Liveness stays: the process is fine, restarting it would not bring the database back.
      expect((await fetch(`${url}/ping`)).status).toBe(200);

      proxy.restore();
      await waitUntilReady(url, 30_000);
      const before = load.acknowledged.length;
      await load.until(() => load.acknowledged.length >= before + 20, 'writes afterwards', 30_000);
    } finally {
      proxy.restore();
      await load.stop();
    }
    expect(load.unexpected).toEqual([]);
    const stored = await storedKeys();
    expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
  }, 120_000);

  it('survives its sessions being terminated under load', async () => {
    const load = startWriteLoad(target, 6);
    try {
      for (let round = 0; round < 5; round++) {
        const before = load.acknowledged.length;
        await load.until(() => load.acknowledged.length >= before + 10, 'writes', 30_000);
        // Every session of the server: transactions in flight, idle pool connections and the
        // LISTEN connections alike.
        await direct.query(
          `SELECT pg_terminate_backend("pid") FROM "pg_stat_activity"
            WHERE "datname" = current_database() AND "application_name" = $1`,
          [servedName],
        );
      }
      const before = load.acknowledged.length;
      await load.until(() => load.acknowledged.length >= before + 10, 'writes afterwards', 30_000);
    } finally {
      await load.stop();
    }
    expect(load.unexpected).toEqual([]);
    await waitUntilReady(url, 30_000);
    const stored = await storedKeys();
    expect(load.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
  }, 120_000);
});
