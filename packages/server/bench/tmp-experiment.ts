// TEMPORARY experiment (deleted after use).
import { randomBytes, createSecretKey } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { AppContext } from '../src/app-context.js';
import { signSessionToken, verifySessionToken } from '../src/infra/auth/session-token.js';
import { jwtVerify } from 'jose';
import { loadConfig } from '../src/infra/config/config.js';
import { openDatabase } from '../src/infra/db/database.js';
import { startEmbeddedPostgres } from '../src/infra/db/embedded-postgres.js';
import { migrate } from '../src/infra/db/migrate.js';
import { createHookRegistry } from '../src/infra/odata/hooks.js';
import { v7Model } from '../src/model/v7-model.js';
import { buildServer } from '../src/server.js';
import { createStatementRecorder } from './explain.js';
import { seedBenchData, defaultSeedOptions } from './seed.js';

const dataDir = '/tmp/flotilla-bench-exp';
await rm(dataDir, { recursive: true, force: true });
const embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: 'exp' });
const db = openDatabase(embedded.url, { max: 4 });
try {
  await migrate(db);
  const c = await db.connect();
  const seed = await seedBenchData(c, defaultSeedOptions);
  c.release();
  const recorder = createStatementRecorder();
  const ctx: AppContext = { db: recorder.database(db), config: loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' }), model: v7Model, hooks: createHookRegistry(), now: () => new Date(), jwtSecret: randomBytes(32) };
  const app = buildServer(ctx);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await signSessionToken(ctx.jwtSecret, { id: seed.admin.userId, jwt_secret: seed.admin.jwtSecret, authTime: Date.now(), permissions: [] }, new Date());
  const path = `/v7/device?$filter=belongs_to__application%20eq%2033%20and%20is_online%20eq%20true&$expand=is_of__device_type($select=slug,name),is_running__release($select=commit,raw_version)&$select=id,uuid,device_name,overall_status,last_connectivity_event&$orderby=device_name%20asc&$top=50&$skip=300`;
  const statements = await recorder.record(async () => {
    const r = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    await r.text();
  });
  const main = statements.find((s) => s.sql.includes('json_agg(r)'));
  if (!main) throw new Error('no main');
  const sql = main.sql;
  const fromAt = sql.indexOf(' FROM "device" "t0" WHERE ');
  const selectStart = 'SELECT coalesce(json_agg(r), \'[]\'::json)::text AS d FROM ('.length;
  const columns = sql.slice(selectStart, fromAt);
  const rest = sql.slice(fromAt + ' FROM "device" "t0" WHERE '.length, sql.length - ') r'.length);
  const orderAt = rest.indexOf(' ORDER BY ');
  const limitAt = rest.indexOf(' LIMIT ');
  const order = rest.slice(orderAt, limitAt);
  const paged = `SELECT coalesce(json_agg(r), '[]'::json)::text AS d FROM (${columns} FROM (SELECT * FROM "device" "t0" WHERE ${rest}) "t0"${order}) r`;
  const client = await db.connect();
  const time = async (label: string, text: string, named?: string) => {
    const times: number[] = [];
    let out = '';
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      const res = await client.query<{ d: string }>(named ? { name: named, text, values: main.params as unknown[] } : { text, values: main.params as unknown[] });
      times.push(performance.now() - t);
      out = res.rows[0]?.d ?? '';
    }
    times.sort((a, b) => a - b);
    console.log(label, 'median ms', times[30]?.toFixed(2), 'p90', times[54]?.toFixed(2));
    return out;
  };
  const a = await time('engine as is (unnamed)', sql);
  const b = await time('paged first, then project', paged);
  console.log('same result:', a === b);
  await time('engine as is, named prepared', sql, 'exp1');
  await time('paged, named prepared', paged, 'exp2');
  const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${paged}`, main.params as unknown[]);
  console.log(plan.rows.map((r) => r['QUERY PLAN']).filter((l: string) => /Limit|Result|Sort|Execution|Planning|SubPlan/.test(l)).join('\n'));
  client.release();

  // JWT verify: raw Uint8Array (imports a CryptoKey per call) vs a KeyObject made once.
  const key = createSecretKey(ctx.jwtSecret);
  for (const [label, fn] of [
    ['verifySessionToken (Uint8Array)', () => verifySessionToken(ctx.jwtSecret, token, new Date())],
    ['jwtVerify with KeyObject', () => jwtVerify(token, key, { algorithms: ['HS256'] })],
  ] as const) {
    for (let i = 0; i < 500; i++) await fn();
    const t = performance.now();
    for (let i = 0; i < 5000; i++) await fn();
    console.log(label, ((performance.now() - t) / 5000 * 1000).toFixed(1), 'us/verify');
  }
  await app.close();
} finally {
  await db.close();
  await embedded.stop();
  await rm(dataDir, { recursive: true, force: true });
}
void pg;
