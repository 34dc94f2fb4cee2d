import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectFakeDevice } from '../src/test-support/fake-device-client.js';
import { startFakeDeviceWeb } from '../src/test-support/fake-device-web.js';
import type { BenchEnv, Measure, Scenario } from './scenario.js';

// The public device URL's tunnel (issue 10), Flotilla alone: a fresh server process, one fake
// device on its cloudlink whose "port 80" is a local HTTP server (fake-device-web.ts: a TCP
// connection per tunnel, honouring the flow-control window, as the agent does). The same
// requests go to that web server directly, for the figures beside: small GETs one after the
// other (latency), then one large download (throughput).

const smallRequests = 200;
const bigBytes = 16 * 1024 * 1024;

type Timed = { latencies: number[]; bigMs: number };

const fetchBytes = (agent: Agent, url: string, path: string, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, url), { agent, headers: { host } });
    request.on('error', reject);
    request.on('response', (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      response.on('error', reject);
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(bytes)
          : reject(new Error(`${path} answered ${response.statusCode ?? 'nothing'}`)),
      );
    });
    request.end();
  });

const timeRequests = async (url: string, host: string): Promise<Timed> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const latencies: number[] = [];
    for (let index = 0; index < smallRequests; index++) {
      const started = performance.now();
      await fetchBytes(agent, url, '/small', host);
      latencies.push(performance.now() - started);
    }
    const started = performance.now();
    const bytes = await fetchBytes(agent, url, '/big', host);
    if (bytes !== bigBytes) throw new Error(`the download had ${bytes} bytes`);
    return { latencies, bigMs: performance.now() - started };
  } finally {
    agent.destroy();
  }
};

const median = (values: readonly number[]): number => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const mbPerSecond = (ms: number): number => bigBytes / 1024 / 1024 / (ms / 1000);

const measureDeviceUrl = async (env: BenchEnv): Promise<Measure> => {
  const device = env.devices[0];
  if (!device) throw new Error('the device URL scenario needs a protocol device');
  const big = Buffer.alloc(bigBytes, 0x61);
  const web = await startFakeDeviceWeb((request, response) => {
    request.resume();
    response.end(request.url === '/big' ? big : 'ok');
  });
  await env.db.query('UPDATE "device" SET "is_web_accessible" = true WHERE "id" = $1', [device.id]);
  const server = await env.startServer('flotilla');
  const fake = await connectFakeDevice(server.url, device.key, { uuid: device.uuid, web });
  try {
    const deadline = performance.now() + 60_000;
    for (;;) {
      const { rows } = await env.db.query('SELECT 1 FROM "cloudlink_session" WHERE "device" = $1', [
        device.id,
      ]);
      if (rows.length > 0) break;
      if (performance.now() > deadline) throw new Error('the device never connected');
      await sleep(100);
    }
    const address = web.server.address();
    if (address === null || typeof address === 'string') throw new Error('no web port');
    // The server's base is localhost:<its port>; the port does not matter for matching.
    const tunnel = await timeRequests(server.url, `${device.uuid}.localhost`);
    const direct = await timeRequests(`http://127.0.0.1:${address.port}`, 'localhost');
    return {
      metrics: {
        opsPerSecond: Number.NaN,
        p50Ms: median(tunnel.latencies),
        p99Ms: Number.NaN,
        directP50Ms: median(direct.latencies),
        tunnelMbPerSecond: mbPerSecond(tunnel.bigMs),
        directMbPerSecond: mbPerSecond(direct.bigMs),
      },
      requests: 2 * (smallRequests + 1),
      errors: 0,
      firstError: undefined,
    };
  } finally {
    await fake.close().catch(() => undefined);
    await server.stop();
    await web.close();
    await env.db.query('UPDATE "device" SET "is_web_accessible" = false WHERE "id" = $1', [
      device.id,
    ]);
  }
};

export const deviceUrlScenario: Scenario = {
  id: 'device-url',
  hasReference: false,
  extra: true,
  rows: [
    {
      name: 'Public device URL: small GET p50 through the tunnel',
      metric: 'p50Ms',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
    {
      name: 'Public device URL: the same GET p50 direct to the device',
      metric: 'directP50Ms',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
    {
      name: 'Public device URL: 16 MB download through the tunnel',
      metric: 'tunnelMbPerSecond',
      unit: 'MB/s',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
    {
      name: 'Public device URL: the same download direct to the device',
      metric: 'directMbPerSecond',
      unit: 'MB/s',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
  ],
  measure: (_side, env) => measureDeviceUrl(env),
};
