import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import { WebSocket } from 'ws';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../src/infra/auth/api-key-tokens.js';
import type { Queryable } from '../src/infra/db/database.js';
import { defaultIngestLimits } from '../src/features/device-logs/log-ingest.js';
import type { ClientReport, ClientRequest } from './cloudlink-clients.js';
import { type LoadOptions, type LoadStats, runEach, runLoad, summarize } from './measure.js';

// The device protocol (issue 4): thousands of simulated devices, each with its own device API
// key, against the one in-process server. These scenarios have no hand-written SQL twin: they
// report throughput and latency of the device-facing routes on their own.

export type ProtocolOptions = {
  // Simulated devices (each gets a device key): BENCH_PROTOCOL_DEVICES.
  devices: number;
  // Concurrent NDJSON log uploads: BENCH_LOG_STREAMS.
  logStreams: number;
  // Websockets held open at once: BENCH_CLOUDLINK_CONNECTIONS.
  cloudlinkConnections: number;
  load: LoadOptions;
};

export type ProtocolDevice = {
  id: number;
  uuid: string;
  key: string;
  fleetUuid: string;
  commit: string;
  // Image reference per service name of the fleet's release.
  images: Record<string, string>;
};

export type ProtocolResult = {
  name: string;
  unit: 'req/s' | 'lines/s' | 'conn/s';
  // NaN when the scenario was skipped or failed (see notes).
  rate: number;
  p50Ms: number;
  p99Ms: number;
  notes: string;
  errors: number;
  firstError: string | undefined;
  // Why the scenario did not run (e.g. the route is missing); not a failure.
  skipped?: string;
  // The scenario itself crashed (not a failed request): the benchmark exits non-zero.
  failed?: string;
  // Raw numbers for bench-results/latest.json.
  details: Record<string, number>;
};

export type ProtocolEnv = {
  baseUrl: string;
  sql: Queryable;
  options: ProtocolOptions;
  log: (line: string) => void;
};

const integer = (value: number): string => Math.round(value).toLocaleString('en');
const percent = (part: number, whole: number): string =>
  whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-';

// ---------------------------------------------------------------------------------------------
// Devices and their keys
// ---------------------------------------------------------------------------------------------

type DeviceRow = Omit<ProtocolDevice, 'key'> & { actor: number };

// `count` devices spread evenly over the seeded fleets, each with a fresh device key: keys are
// generated here (the format of api-key-tokens.ts) and only their SHA-256 hashes are stored, in
// one set-based insert.
export const createDeviceKeys = async (
  sql: Queryable,
  count: number,
): Promise<ProtocolDevice[]> => {
  const { rows: totals } = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS "n" FROM "device"',
  );
  const stride = Math.max(1, Math.floor((totals[0]?.n ?? 0) / Math.max(1, count)));
  const { rows } = await sql.query<DeviceRow>(
    `SELECT d."id", d."uuid", d."actor", a."uuid" AS "fleetUuid", r."commit",
            coalesce((SELECT json_object_agg(s."service_name", i."is_stored_at__image_location" || '@' || i."content_hash")
                        FROM "release_image" ri
                        JOIN "image" i ON i."id" = ri."image"
                        JOIN "service" s ON s."id" = i."is_a_build_of__service"
                       WHERE ri."is_part_of__release" = r."id"), '{}'::json) AS "images"
       FROM "device" d
       JOIN "application" a ON a."id" = d."belongs_to__application"
       JOIN "release" r ON r."id" = a."should_be_running__release"
      WHERE (d."id" - 1) % $1 = 0
      ORDER BY d."id" LIMIT $2`,
    [stride, count],
  );
  const devices = rows.map(({ actor: _actor, ...row }) => ({ ...row, key: generateApiKey() }));
  await sql.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name")
     SELECT k."actor", k."hash", k."prefix", 'bench device key'
       FROM unnest($1::int[], $2::text[], $3::text[]) AS k("actor", "hash", "prefix")`,
    [
      rows.map((row) => row.actor),
      devices.map((device) => hashApiKey(device.key)),
      devices.map((device) => apiKeyPrefix(device.key)),
    ],
  );
  await sql.query('ANALYZE "api_key"');
  return devices;
};

// ---------------------------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------------------------

const deviceCall = async (
  env: ProtocolEnv,
  device: ProtocolDevice,
  method: 'GET' | 'PATCH',
  path: string,
  init: { body?: unknown; etag?: string } = {},
): Promise<Response> => {
  const headers: Record<string, string> = { authorization: `Bearer ${device.key}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.etag !== undefined) headers['if-none-match'] = init.etag;
  return fetch(`${env.baseUrl}${path}`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
};

const failure = async (response: Response, what: string): Promise<Error> =>
  new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);

// Hands out the devices round-robin, so concurrent requests never belong to one device.
const roundRobin = <T>(items: readonly T[]): (() => T) => {
  let next = 0;
  return () => {
    const item = items[next++ % items.length];
    if (item === undefined) throw new Error('no devices');
    return item;
  };
};

const fromStats = (
  name: string,
  stats: LoadStats,
  notes: string,
  details: Record<string, number> = {},
): ProtocolResult => ({
  name,
  unit: 'req/s',
  rate: stats.requestsPerSecond,
  p50Ms: stats.p50Ms,
  p99Ms: stats.p99Ms,
  notes,
  errors: stats.errors,
  firstError: stats.firstError,
  details: { requests: stats.requests, ...details },
});

// ---------------------------------------------------------------------------------------------
// (a) State reports
// ---------------------------------------------------------------------------------------------

// What an agent sends after a change: device facts, addresses, metrics (the server keeps them
// at most once a minute) and the running release with its services.
const stateReport = (device: ProtocolDevice, n: number): Record<string, unknown> => {
  const services = Object.fromEntries(
    Object.entries(device.images).map(([name, image]) => [
      name,
      { image, status: 'Running', download_progress: null },
    ]),
  );
  return {
    [device.uuid]: {
      status: 'Idle',
      os_version: 'balenaOS 5.3.21',
      os_variant: 'prod',
      supervisor_version: '16.4.6',
      provisioning_progress: null,
      provisioning_state: '',
      ip_address: `192.168.${(device.id >> 8) % 256}.${device.id % 256} 10.114.${n % 256}.2`,
      mac_address: `dc:a6:32:${(device.id % 256).toString(16).padStart(2, '0')}:00:01 02:42:ac:11:00:02`,
      api_port: 48484,
      api_secret: `secret-${device.id}`,
      cpu_id: `10000000${device.id.toString(16).padStart(8, '0')}`,
      is_undervolted: false,
      cpu_usage: n % 100,
      cpu_temp: 40 + (n % 200) / 10,
      memory_usage: 700 + (n % 300),
      memory_total: 3906,
      storage_block_device: '/dev/mmcblk0p6',
      storage_usage: 2300 + (n % 50),
      storage_total: 28_000,
      update_status: 'done',
      apps: {
        [device.fleetUuid]: {
          release_uuid: device.commit,
          releases: { [device.commit]: { update_status: 'done', services } },
        },
      },
    },
  };
};

const stateReports = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult> => {
  const next = roundRobin(devices);
  let n = 0;
  const stats = await runLoad(async () => {
    const device = next();
    const response = await deviceCall(env, device, 'PATCH', '/device/v3/state', {
      body: stateReport(device, n++),
    });
    if (!response.ok) throw await failure(response, 'PATCH /device/v3/state');
    await response.arrayBuffer();
  }, env.options.load);
  return fromStats(
    'state report: PATCH /device/v3/state',
    stats,
    `${integer(devices.length)} devices round-robin, ` +
      `${Object.keys(devices[0]?.images ?? {}).length} services each`,
  );
};

// ---------------------------------------------------------------------------------------------
// (b) Target-state polls
// ---------------------------------------------------------------------------------------------

const targetStatePolls = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult[]> => {
  const etags = new Map<number, string>();
  let bodyBytes = 0;
  const poll = async (device: ProtocolDevice): Promise<number> => {
    const etag = etags.get(device.id);
    const response = await deviceCall(env, device, 'GET', `/device/v3/${device.uuid}/state`, {
      ...(etag === undefined ? {} : { etag }),
    });
    const body = await response.arrayBuffer();
    if (response.status !== 200 && response.status !== 304) {
      throw new Error(
        `GET /device/v3/:uuid/state answered ${response.status}: ${Buffer.from(body).toString().slice(0, 300)}`,
      );
    }
    const fresh = response.headers.get('etag');
    if (fresh !== null) etags.set(device.id, fresh);
    if (response.status === 200) bodyBytes = body.byteLength;
    return response.status;
  };

  // Every device's first poll (no ETag yet, full body) until all have one or the window ends;
  // the conditional polls below cycle through the devices that got an ETag.
  const cold = await runEach(
    devices,
    async (device) => {
      await poll(device);
    },
    { ...env.options.load, warmupMs: 0 },
  );
  const primed = devices.filter((device) => etags.has(device.id));
  const next = roundRobin(primed);
  let notModified = 0;
  let full = 0;
  // Counted like runLoad's latencies: polls begun after the warm-up.
  const countFrom = performance.now() + env.options.load.warmupMs;
  const warm = await runLoad(async () => {
    const counted = performance.now() >= countFrom;
    const status = await poll(next());
    if (!counted) return;
    if (status === 304) notModified += 1;
    else full += 1;
  }, env.options.load);
  return [
    fromStats(
      'target-state poll, first (200 + ETag)',
      cold,
      `${integer(primed.length)} of ${integer(devices.length)} devices polled; body ${integer(bodyBytes)} B`,
      { devicesPolled: primed.length, bodyBytes },
    ),
    fromStats(
      'target-state poll, If-None-Match',
      warm,
      `304 share ${percent(notModified, notModified + full)} of ${integer(notModified + full)} polls`,
      {
        notModified,
        full,
        share304: notModified + full > 0 ? notModified / (notModified + full) : 0,
      },
    ),
  ];
};

// ---------------------------------------------------------------------------------------------
// (c) Log ingest
// ---------------------------------------------------------------------------------------------

// Lines per second each stream offers: just under the server's per-stream limit, as a well-
// behaved agent does, so nothing is dropped and the total measures the server, not the limit.
const streamLinesPerSecond = Math.floor(defaultIngestLimits.linesPerSecond * 0.9);
const tickMs = 100;

const logLines = (device: ProtocolDevice, count: number, n: number): string => {
  const now = Date.now();
  let text = '';
  for (let i = 0; i < count; i++) {
    const line = n * count + i;
    text += `${JSON.stringify({
      message: `[main] GET /api/v1/sensors/${line % 64} 200 ${(line % 97) / 10} ms - request ${line}`,
      timestamp: now,
      isSystem: false,
      isStdErr: line % 25 === 0,
      serviceId: 2 * (device.id % 200) + 1,
    })}\n`;
  }
  return text;
};

type StreamOutcome = { sent: number; status: number; error: string | undefined };

// One long-lived POST /device/v2/:uuid/log-stream, written in paced chunks until `until`.
const streamLogs = async (
  env: ProtocolEnv,
  device: ProtocolDevice,
  until: number,
): Promise<StreamOutcome> => {
  const request = http.request(`${env.baseUrl}/device/v2/${device.uuid}/log-stream`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${device.key}`,
      'content-type': 'application/x-ndjson',
    },
  });
  let answered = false;
  const response = new Promise<number>((resolve, reject) => {
    request.on('response', (incoming) => {
      answered = true;
      incoming.resume();
      incoming.on('end', () => resolve(incoming.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  const linesPerTick = Math.max(1, Math.round((streamLinesPerSecond * tickMs) / 1000));
  let sent = 0;
  let n = 0;
  let due = performance.now();
  try {
    // An early answer (401...) ends the upload.
    while (performance.now() < until && !answered) {
      const more = request.write(logLines(device, linesPerTick, n++));
      sent += linesPerTick;
      if (!more) await once(request, 'drain');
      due += tickMs;
      const wait = due - performance.now();
      // Behind schedule (back-pressure, a busy loop): carry on, never burst to catch up.
      if (wait > 0) await sleep(wait);
      else due = performance.now();
    }
    request.end();
    const status = await response;
    return { sent, status, error: status === 201 ? undefined : `answered ${status}` };
  } catch (error) {
    request.destroy();
    return { sent, status: 0, error: error instanceof Error ? error.message : String(error) };
  }
};

const newestLogId = async (sql: Queryable): Promise<number> => {
  const { rows } = await sql.query<{ id: string }>(
    'SELECT coalesce(max("id"), 0)::text AS "id" FROM "device_log"',
  );
  return Number(rows[0]?.id ?? 0);
};

const logIngest = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult> => {
  const streams = devices.slice(0, env.options.logStreams);
  const { warmupMs, durationMs } = env.options.load;
  // Retention trims each device's oldest lines as new ones arrive, so rows are not counted:
  // lines stored = growth of the identity column (ids are never reused).
  const startId = await newestLogId(env.sql);
  const began = performance.now();
  const until = began + warmupMs + durationMs;
  const outcomes = Promise.all(streams.map((device) => streamLogs(env, device, until)));
  await sleep(warmupMs);
  const windowId = await newestLogId(env.sql);
  const windowStart = performance.now();
  await sleep(Math.max(0, until - windowStart));
  // The rate is what was stored during the window; when the server is slower than the offered
  // load, what the sockets still hold is drained afterwards and not counted.
  const windowEndId = await newestLogId(env.sql);
  const windowMs = performance.now() - windowStart;
  const results = await outcomes;
  // Every stream has its 201: the server answers only once its lines are stored.
  const endId = await newestLogId(env.sql);
  const drainMs = performance.now() - windowStart - windowMs;
  const sent = results.reduce((sum, result) => sum + result.sent, 0);
  const storedTotal = endId - startId;
  const rate = windowMs > 0 ? ((windowEndId - windowId) * 1000) / windowMs : Number.NaN;
  const failedStreams = results.filter((result) => result.error !== undefined);
  const offered = streams.length * streamLinesPerSecond;
  const keptUp = rate >= 0.95 * offered;
  return {
    name: `log stream ingest (${streams.length} NDJSON uploads)`,
    unit: 'lines/s',
    rate,
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    notes:
      `offered ${integer(offered)} lines/s` +
      (keptUp
        ? ' (kept up: raise BENCH_LOG_STREAMS to find the limit)'
        : `, backlog drained in ${(drainMs / 1000).toFixed(1)} s`) +
      `; ${integer(sent)} sent, ${integer(storedTotal)} stored` +
      (sent > storedTotal ? ` (${integer(sent - storedTotal)} dropped)` : ''),
    errors: failedStreams.length,
    firstError: failedStreams[0]?.error,
    details: {
      streams: streams.length,
      offeredLinesPerSecond: offered,
      linesSent: sent,
      linesStored: storedTotal,
      linesStoredInWindow: windowEndId - windowId,
      windowMs,
      drainMs,
    },
  };
};

// ---------------------------------------------------------------------------------------------
// (d) Cloudlink memory
// ---------------------------------------------------------------------------------------------

type Probe = 'registered' | 'missing';

// One websocket from this process: is the route there at all? A server without it answers the
// upgrade request like any unknown URL, 404.
const probeCloudlink = (env: ProtocolEnv, device: ProtocolDevice): Promise<Probe> =>
  new Promise<Probe>((resolve, reject) => {
    const url = new URL(cloudlinkPath, env.baseUrl);
    url.protocol = 'ws:';
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${device.key}` } });
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      if (response.statusCode === 404) resolve('missing');
      else reject(new Error(`the cloudlink upgrade answered ${response.statusCode ?? '?'}`));
    });
    socket.on('open', () => {
      socket.close(1000, 'probe');
      resolve('registered');
    });
    socket.on('error', reject);
  });

const collectGarbage = async (): Promise<void> => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(100);
  }
};

const megabytes = (bytes: number): number => bytes / 1_048_576;

// Waits until the server has recorded every connection (the session rows are written after the
// upgrade), so the memory is measured at rest; a fixed pause when the table is not readable.
const waitForSessions = async (sql: Queryable, count: number): Promise<void> => {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    try {
      const { rows } = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS "n" FROM "cloudlink_session"',
      );
      if ((rows[0]?.n ?? 0) >= count) return;
    } catch {
      await sleep(2000);
      return;
    }
    await sleep(200);
  }
};

const isClientReport = (message: unknown): message is ClientReport =>
  typeof message === 'object' && message !== null && 'type' in message;

// The clients run in a child process, so their sockets and buffers stay out of the server's
// (this process's) heap and RSS.
const cloudlinkMemory = async (
  env: ProtocolEnv,
  devices: readonly ProtocolDevice[],
): Promise<ProtocolResult> => {
  const name = `cloudlink: memory per 1,000 websockets`;
  const first = devices[0];
  if (!first) throw new Error('no devices');
  if ((await probeCloudlink(env, first)) === 'missing') {
    return {
      name,
      unit: 'conn/s',
      rate: Number.NaN,
      p50Ms: Number.NaN,
      p99Ms: Number.NaN,
      notes: 'skipped: cloudlink route not registered',
      errors: 0,
      firstError: undefined,
      skipped: 'cloudlink route not registered',
      details: {},
    };
  }
  const clients = devices.slice(0, env.options.cloudlinkConnections);
  const child = fork(fileURLToPath(new URL('./cloudlink-clients.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const reports: ClientReport[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: unknown) => {
    if (isClientReport(message)) reports.push(message);
    wake?.();
  });
  const nextReport = async <Type extends ClientReport['type']>(
    type: Type,
  ): Promise<Extract<ClientReport, { type: Type }>> => {
    for (;;) {
      const index = reports.findIndex((report) => report.type === type);
      const report = reports[index];
      if (report !== undefined) {
        reports.splice(index, 1);
        return report as Extract<ClientReport, { type: Type }>;
      }
      if (child.exitCode !== null) throw new Error('the cloudlink client process exited');
      await Promise.race([
        new Promise<void>((resolve) => (wake = resolve)),
        exited.then(() => undefined),
      ]);
    }
  };
  const send = (request: ClientRequest): void => {
    child.send(request);
  };

  try {
    await nextReport('ready');
    // The probe's own connection is closed and forgotten before the baseline is taken.
    await sleep(500);
    await collectGarbage();
    const before = process.memoryUsage();
    send({
      type: 'open',
      baseUrl: env.baseUrl,
      devices: clients.map((device) => ({ uuid: device.uuid, key: device.key })),
      concurrency: 50,
    });
    const opened = await nextReport('opened');
    await waitForSessions(env.sql, opened.opened);
    await collectGarbage();
    const after = process.memoryUsage();
    send({ type: 'close' });
    await nextReport('closed');
    const latencies = summarize(
      opened.latencies,
      opened.elapsedMs,
      opened.failed,
      opened.firstError,
    );
    const perThousand = opened.opened / 1000;
    const heapMb = megabytes(after.heapUsed - before.heapUsed) / perThousand;
    const rssMb = megabytes(after.rss - before.rss) / perThousand;
    const externalMb = megabytes(after.external - before.external) / perThousand;
    const gcNote =
      typeof (globalThis as { gc?: unknown }).gc === 'function' ? '' : ' (no --expose-gc: noisy)';
    return {
      name,
      unit: 'conn/s',
      rate: latencies.requestsPerSecond,
      p50Ms: latencies.p50Ms,
      p99Ms: latencies.p99Ms,
      notes:
        `${integer(opened.opened)} open: heap +${heapMb.toFixed(1)} MB, ` +
        `RSS +${rssMb.toFixed(1)} MB per 1,000${gcNote}`,
      errors: opened.failed,
      firstError: opened.firstError,
      details: {
        connections: opened.opened,
        heapUsedMbPer1000: heapMb,
        rssMbPer1000: rssMb,
        externalMbPer1000: externalMb,
        heapUsedBefore: before.heapUsed,
        heapUsedAfter: after.heapUsed,
        rssBefore: before.rss,
        rssAfter: after.rss,
      },
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await exited;
  }
};

// ---------------------------------------------------------------------------------------------
// All of them
// ---------------------------------------------------------------------------------------------

type ProtocolScenario = {
  name: string;
  run: (env: ProtocolEnv, devices: readonly ProtocolDevice[]) => Promise<ProtocolResult[]>;
};

const protocolScenarios: ProtocolScenario[] = [
  { name: 'state report', run: async (env, devices) => [await stateReports(env, devices)] },
  { name: 'target-state poll', run: targetStatePolls },
  { name: 'log stream', run: async (env, devices) => [await logIngest(env, devices)] },
  { name: 'cloudlink', run: async (env, devices) => [await cloudlinkMemory(env, devices)] },
];

const crashed = (name: string, error: unknown): ProtocolResult => {
  const message = error instanceof Error ? error.message : String(error);
  return {
    name,
    unit: 'req/s',
    rate: Number.NaN,
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    notes: `FAILED: ${message.slice(0, 200)}`,
    errors: 0,
    firstError: undefined,
    failed: message,
    details: {},
  };
};

// Runs the selected protocol scenarios in order, the cloudlink last (it measures the process's
// memory, so nothing else should run meanwhile). A scenario that throws is reported as failed and
// the others still run.
export const runProtocolScenarios = async (
  env: ProtocolEnv,
  selected: (name: string) => boolean,
): Promise<ProtocolResult[]> => {
  const chosen = protocolScenarios.filter((scenario) => selected(scenario.name));
  if (chosen.length === 0) return [];
  const mark = performance.now();
  const devices = await createDeviceKeys(env.sql, env.options.devices);
  env.log(
    `Created ${integer(devices.length)} device keys in ${((performance.now() - mark) / 1000).toFixed(1)} s`,
  );
  const results: ProtocolResult[] = [];
  for (const scenario of chosen) {
    let produced: ProtocolResult[];
    try {
      produced = await scenario.run(env, devices);
    } catch (error) {
      produced = [crashed(scenario.name, error)];
    }
    for (const result of produced) {
      results.push(result);
      const rate = Number.isFinite(result.rate) ? `${result.rate.toFixed(1)} ${result.unit}` : '-';
      env.log(`  ${result.name}: ${rate}; ${result.notes}`);
    }
  }
  return results;
};
