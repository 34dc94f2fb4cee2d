import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isOnlineSql, overallStatus, rawVersion } from '../baseline-sql.js';
import { cpuMillis } from '../proc-stats.js';
import type { SeedInfo } from '../seed.js';

// `@balena/pinejs` in a process of its own (pinejs-server.mjs) on a database of its own inside
// the bench's PostgreSQL server, loaded with the bench's rows: the member, their fleet
// memberships (what Flotilla's fleet_access gives them), device types, releases and devices.
// pinejs has no computed fields of ours: a device's overall status, whether it is online and its
// last connectivity event are copied as stored columns (computed once, at load time, by the same
// SQL as the reference's), which leaves pinejs less work than Flotilla does per row.

export type PinejsServer = {
  url: string;
  pid: number;
  token: string;
  cpuMillis(): Promise<number>;
  // Its last lines of output (pinejs logs why it answered 500 there).
  output(): string;
  stop(): Promise<void>;
};

const serverFile = fileURLToPath(new URL('./pinejs-server.mjs', import.meta.url));
const startTimeoutMs = 120_000;

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const listening = (child: ChildProcess, output: () => string): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`pinejs did not start within ${startTimeoutMs} ms:\n${output()}`)),
      startTimeoutMs,
    );
    child.on('message', (message: unknown) => {
      if (typeof message !== 'object' || message === null) return;
      const url: unknown = Reflect.get(message, 'url');
      if (Reflect.get(message, 'type') === 'listening' && typeof url === 'string') {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pinejs exited with ${code ?? 'a signal'} while starting:\n${output()}`));
    });
  });

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
};

// Each table in one INSERT ... SELECT FROM unnest(arrays), the arrays read from the bench database.
const copyRows = async (source: pg.Pool, target: pg.Client, seed: SeedInfo): Promise<void> => {
  // One row of arrays (a column each) read from the bench database, unnested into pinejs's.
  const one = async (select: string, params: unknown[], insert: string): Promise<void> => {
    const { rows } = await source.query<Record<string, unknown>>(select, params);
    const row = rows[0] ?? {};
    await target.query(insert, Object.values(row));
  };
  await one(
    `SELECT array_agg("id") AS "id", array_agg("slug") AS "slug" FROM "application"`,
    [],
    `INSERT INTO "application" ("id", "slug") SELECT * FROM unnest($1::int[], $2::text[])`,
  );
  await target.query(`INSERT INTO "member" ("id", "actor number") VALUES ($1, $2)`, [
    seed.member.userId,
    seed.member.actorId,
  ]);
  await one(
    `SELECT array_agg(DISTINCT fa."application") AS "fleets" FROM "fleet_access" fa WHERE fa."user" = $1`,
    [seed.member.userId],
    `INSERT INTO "member-has access to-application" ("member", "has access to-application")
     SELECT ${seed.member.userId}, f FROM unnest($1::int[]) f`,
  );
  await one(
    `SELECT array_agg("id") AS "id", array_agg("slug") AS "slug", array_agg("name") AS "name"
       FROM "device_type"`,
    [],
    `INSERT INTO "device type" ("id", "slug", "name")
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`,
  );
  await one(
    `SELECT array_agg(r."id") AS "id", array_agg(r."belongs_to__application") AS "fleet",
            array_agg(r."commit") AS "commit", array_agg(${rawVersion}) AS "raw",
            array_agg(r."created_at") AS "created"
       FROM "release" r`,
    [],
    `INSERT INTO "release" ("id", "belongs to-application", "commit", "raw version", "created at")
     SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::timestamptz[])`,
  );
  await one(
    `SELECT array_agg(d."id") AS "id", array_agg(d."uuid") AS "uuid",
            array_agg(d."device_name") AS "name", array_agg(d."belongs_to__application") AS "fleet",
            array_agg(d."is_of__device_type") AS "type", array_agg(d."is_running__release") AS "release",
            array_agg(${overallStatus}) AS "status", array_agg(${isOnlineSql}) AS "online",
            array_agg(CASE WHEN ${isOnlineSql} THEN d."connected_since" ELSE d."last_contact_at" END)
              AS "event"
       FROM "device" d`,
    [],
    `INSERT INTO "device" ("id", "uuid", "device name", "belongs to-application", "is of-device type",
                           "is running-release", "overall status", "is online", "last connectivity event")
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[],
                          $7::text[], $8::boolean[], $9::timestamptz[])`,
  );
  // pinejs indexes its foreign keys; ANALYZE so its plans see the rows.
  await target.query('ANALYZE');
};

export const startPinejs = async (
  benchDatabaseUrl: string,
  benchPool: pg.Pool,
  seed: SeedInfo,
): Promise<PinejsServer> => {
  const name = `flotilla_pinejs_${randomBytes(4).toString('hex')}`;
  await withClient(benchDatabaseUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(benchDatabaseUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dropDatabase = () =>
    withClient(benchDatabaseUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  const token = randomBytes(16).toString('hex');
  // pinejs keeps compiled models in a file (by default in its working directory).
  const cacheFile = path.join(os.tmpdir(), `${name}.pinejs-cache.json`);
  const child = fork(serverFile, [], {
    execArgv: [],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PINEJS_MEMBER_TOKEN: token,
      PINEJS_MEMBER_ACTOR: String(seed.member.actorId),
      PINEJS_CACHE_FILE: cacheFile,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(cacheFile, { force: true });
    await dropDatabase();
  };
  try {
    const serverUrl = await listening(child, () => lines.join('\n'));
    await withClient(databaseUrl, (client) => copyRows(benchPool, client, seed));
    const pid = child.pid;
    if (pid === undefined) throw new Error('pinejs child without a pid');
    return {
      url: serverUrl,
      pid,
      token,
      cpuMillis: () => cpuMillis(pid),
      output: () => lines.join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
