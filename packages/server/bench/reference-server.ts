import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import Fastify from 'fastify';
import pg from 'pg';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  countSql,
  fleetCountsSql,
  fleetSummarySql,
  pageSql,
  releaseCountSql,
  releasePageSql,
} from './baseline-sql.js';
import { registerReferenceLogs } from './reference-logs.js';
import { registerReferenceChangingState } from './reference-changing-state.js';
import { registerReferenceState } from './reference-state.js';

// The reference server: a bare Fastify app doing the minimal same work as each scenario's
// Flotilla route, on the same database with the same pool size, in a process of its own (forked
// by processes.ts). No authentication: the caller names the user (?user=) or device; what
// authentication costs is part of what the goals allow Flotilla. Routes:
//   GET /hello                        the floor of any HTTP route (target-state poll 304)
//   GET /ref/device-page, /ref/device-count, /ref/fleet-counts, /ref/fleet-summary
//                                     the /v7 reads, in hand-written SQL (baseline-sql.ts)
//   GET /ref/fleet-counts-all, /ref/fleet-summary-all
//                                     the seven counts of one console batch in one request
//   GET /ref/release-page, /ref/release-count   the console's release list (its two reads)
//   PATCH /ref/state                  batched UPDATE (reference-state.ts)
//   POST /ref/log-stream/:device, GET /ref/log-tail/:device   batched INSERT (reference-logs.ts)
//   websocket /cloudlink/v1           a bare ws server holding idle connections (memory)

// Flotilla's pool size (openDatabase's default): both sides get the same number of connections.
const referencePoolSize = 20;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

// node-postgres would give int8 counts as strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
const pool = new pg.Pool({ connectionString: databaseUrl, max: referencePoolSize });
pool.on('error', () => undefined);

const app = Fastify({ logger: false, bodyLimit: 1_048_576 });

type Query = Record<string, string | undefined>;
const int = (query: Query, name: string): number => {
  const value = Number(query[name]);
  if (!Number.isInteger(value)) throw new Error(`?${name}= must be an integer`);
  return value;
};

app.get('/hello', async () => 'OK');

app.get<{ Querystring: Query }>('/ref/device-page', async (request) => {
  const { rows } = await pool.query(pageSql, [
    int(request.query, 'user'),
    int(request.query, 'fleet'),
    int(request.query, 'skip'),
  ]);
  return { d: rows };
});

app.get<{ Querystring: Query }>('/ref/device-count', async (request) => {
  const { rows } = await pool.query<{ n: number }>(countSql, [
    int(request.query, 'user'),
    int(request.query, 'fleet'),
  ]);
  return { d: rows[0]?.n ?? 0 };
});

app.get<{ Querystring: Query }>('/ref/fleet-counts', async (request) => {
  const { rows } = await pool.query(fleetCountsSql, [
    int(request.query, 'user'),
    request.query.status ?? '',
  ]);
  return { d: rows };
});

app.get<{ Querystring: Query }>('/ref/fleet-summary', async (request) => {
  const { rows } = await pool.query<{ n: number }>(fleetSummarySql, [
    int(request.query, 'user'),
    int(request.query, 'fleet'),
    request.query.status ?? '',
  ]);
  return { d: rows[0]?.n ?? 0 };
});

// The seven statuses at once, as the console's one batched request asks for them.
const statusesOf = (query: Query): string[] => (query.statuses ?? '').split(',');

app.get<{ Querystring: Query }>('/ref/fleet-counts-all', async (request) => {
  const user = int(request.query, 'user');
  const answers = await Promise.all(
    statusesOf(request.query).map(async (status) => ({
      d: (await pool.query(fleetCountsSql, [user, status])).rows,
    })),
  );
  return { responses: answers };
});

app.get<{ Querystring: Query }>('/ref/fleet-summary-all', async (request) => {
  const user = int(request.query, 'user');
  const fleet = int(request.query, 'fleet');
  const answers = await Promise.all(
    statusesOf(request.query).map(async (status) => ({
      d: (await pool.query<{ n: number }>(fleetSummarySql, [user, fleet, status])).rows[0]?.n ?? 0,
    })),
  );
  return { responses: answers };
});

app.get<{ Querystring: Query }>('/ref/release-page', async (request) => {
  const { rows } = await pool.query(releasePageSql, [
    int(request.query, 'user'),
    int(request.query, 'fleet'),
    int(request.query, 'skip'),
  ]);
  return { d: rows };
});

app.get<{ Querystring: Query }>('/ref/release-count', async (request) => {
  const { rows } = await pool.query(releaseCountSql, [
    int(request.query, 'user'),
    int(request.query, 'fleet'),
  ]);
  return { d: rows };
});

registerReferenceState(app, pool);
registerReferenceChangingState(app, pool);
registerReferenceLogs(app, pool);

await app.listen({ port: 0, host: '127.0.0.1' });

const sockets = new Set<WebSocket>();
const wss = new WebSocketServer({ server: app.server, path: cloudlinkPath });
wss.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => undefined);
});

const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no TCP address');
process.send?.({ type: 'listening', url: `http://127.0.0.1:${address.port}` });

const stop = async (): Promise<void> => {
  for (const socket of sockets) socket.terminate();
  wss.close();
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
