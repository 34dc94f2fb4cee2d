import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabaseUrl } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { eventStreamDefaults } from './register-event-stream.js';
import { openSse, type SseClient } from './sse-test-client.js';

// The per-user stream limit across two server processes on one database: a real server process
// (main.ts, default settings) and one in this process with a clock the test can move. The child is killed with SIGKILL: its leases stop counting once they lapse (this
// process's clock is moved past the lease rather than waiting it out).
describe('the event stream limit across processes', () => {
  let db: Database;
  let dropDatabase: () => Promise<void>;
  let dataDir: string;
  let child: ChildProcess | undefined;
  let childUrl = '';
  let app: FastifyInstance;
  let appUrl = '';
  let key = '';
  let clockOffsetMs = 0;
  const max = eventStreamDefaults.maxPerUser;
  const clients: SseClient[] = [];

  const connect = async (baseUrl: string): Promise<SseClient> => {
    const client = await openSse(`${baseUrl}/events/v1/stream`, {
      authorization: `Bearer ${key}`,
    });
    clients.push(client);
    return client;
  };
  const leaseCount = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM "event_stream_lease"`,
    );
    return rows[0]?.n ?? 0;
  };

  beforeAll(async () => {
    const { url, drop } = await createTestDatabaseUrl();
    dropDatabase = drop;
    db = openDatabase(url, { max: 5 });
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-stream-leases-'));
    const server = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', path.join(import.meta.dirname, '../../main.ts')],
      {
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: '0',
          HOST: '127.0.0.1',
          FLOTILLA_DATA_DIR: dataDir,
          FLOTILLA_DEMO: 'off',
          FLOTILLA_ADMIN_PASSWORD: 'two-processes-one-limit',
          FLOTILLA_LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = server;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 90 s: ${output}`)), 90_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"banner":\{[^}]*"url":"(http:\/\/[^"]+)"/.exec(output);
        if (!match?.[1]) return;
        childUrl = match[1].replace(/\/$/, '');
        clearTimeout(timer);
        resolve();
      };
      server.stdout?.on('data', read);
      server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.once('exit', (code) => reject(new Error(`exited (${code}): ${output}`)));
    });

    app = buildServer(createTestContext(db, { now: () => new Date(Date.now() + clockOffsetMs) }));
    appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const user = await fx.createUser(db, 'two-streams');
    key = await createApiKey(db, user.actorId, { name: 'streams' });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.ended));
    if (child?.exitCode === null) child.kill('SIGKILL');
    await app?.close();
    await db?.close();
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds the limit over both processes, and frees a dead process’s streams when they lapse', async () => {
    // Shared: streams on either process count against one limit.
    const onChild = [];
    for (let index = 0; index < max - 1; index += 1) onChild.push(await connect(childUrl));
    const onApp = await connect(appUrl);
    expect([...onChild, onApp].map((client) => client.status)).toEqual(Array(max).fill(200));
    expect((await connect(appUrl)).status).toBe(429);
    expect((await connect(childUrl)).status).toBe(429);

    // A stream closed on one process frees a place on the other.
    onApp.close();
    await onApp.ended;
    await waitFor('the released lease', async () => (await leaseCount()) === max - 1);
    const last = await connect(childUrl);
    expect(last.status).toBe(200);

    // The child dies holding every place: its leases still count until they lapse.
    child?.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    expect((await connect(appUrl)).status).toBe(429);
    clockOffsetMs = eventStreamDefaults.leaseMs + 1_000;
    const after = await connect(appUrl);
    expect(after.status).toBe(200);
    expect(await leaseCount()).toBe(1);
  });
});
