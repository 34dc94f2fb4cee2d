import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectFakeDevice } from '../src/test-support/fake-device-client.js';
import { createFakeShells } from '../src/test-support/fake-shells.js';
import { connectTerminal } from '../src/test-support/terminal-client.js';
import type { BenchEnv, Measure, Scenario } from './scenario.js';

// The web terminal, Flotilla alone: a fresh server process, one fake device
// on its cloudlink (fake-shells.ts: an echo shell honouring the flow-control window) and one
// browser-side client. Echo round trip: a line typed, its echo read back, one after the other.
// Then two 10 MB `flood`s drawn by a client acknowledging as it reads. During the first the
// server's RSS is sampled; it includes garbage: each hop allocates a buffer per 16 KiB frame,
// and V8 collects them only under memory pressure, so the peak says more about the collector
// than about buffering. During the second the server collects garbage at each sample and
// reports what it still holds (child-probe.mjs): its growth above the idle baseline is the
// backlog, which the flow-control window (256 KiB ahead of the browser's acks) keeps small.

const echoes = 300;
const floodBytes = 10 * 1024 * 1024;
const memorySampleMs = 50;

const p99 = (values: number[]): number => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
};

const measureTerminal = async (env: BenchEnv): Promise<Measure> => {
  const device = env.devices[0];
  if (!device) throw new Error('the terminal scenario needs a protocol device');
  const server = await env.startServer('flotilla');
  const shells = createFakeShells();
  const fake = await connectFakeDevice(server.url, device.key, { uuid: device.uuid, shells });
  try {
    const deadline = performance.now() + 60_000;
    // The session is recorded after the upgrade; until then the device counts as offline.
    for (;;) {
      const { rows } = await env.db.query('SELECT 1 FROM "cloudlink_session" WHERE "device" = $1', [
        device.id,
      ]);
      if (rows.length > 0) break;
      if (performance.now() > deadline) throw new Error('the device never connected');
      await sleep(100);
    }
    const client = connectTerminal(server.url, {
      token: env.tokens.admin,
      uuid: device.uuid,
      target: { kind: 'host' },
    });
    await client.waitForText('fake shell');
    const latencies: number[] = [];
    for (let index = 0; index < echoes; index++) {
      const started = performance.now();
      client.send(`ping${index}\n`);
      await client.waitForText(`echo:ping${index}\r\n`);
      latencies.push(performance.now() - started);
    }
    // One flood drawn by a client acknowledging as it reads, `sample` polled until it is done.
    const drawFlood = async (sample: () => Promise<void>): Promise<number> => {
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          await sample();
          await sleep(memorySampleMs);
        }
      })();
      const floodClient = connectTerminal(server.url, {
        token: env.tokens.admin,
        uuid: device.uuid,
        target: { kind: 'host' },
        keepText: false,
      });
      try {
        await floodClient.waitForMessage('ready');
        const started = performance.now();
        floodClient.send(`flood ${floodBytes}\n`);
        // Counted, not kept as text: done once every byte and the closing line arrived.
        while (floodClient.received < floodBytes) await sleep(20);
        return performance.now() - started;
      } finally {
        sampling = false;
        await sampler;
        floodClient.socket.close();
      }
    };
    // First flood: the process's RSS, garbage included.
    await server.collectGarbage();
    const rssBefore = await server.rssBytes();
    let rssPeak = rssBefore;
    const floodMs = await drawFlood(async () => {
      rssPeak = Math.max(rssPeak, await server.rssBytes());
    });
    // Second flood: what the server still holds after a collection at each sample.
    await server.collectGarbage();
    const liveBefore = await server.liveMemoryBytes();
    let livePeak = liveBefore;
    await drawFlood(async () => {
      livePeak = Math.max(livePeak, await server.liveMemoryBytes());
    });
    client.socket.close();
    return {
      metrics: {
        opsPerSecond: Number.NaN,
        p50Ms: Number.NaN,
        p99Ms: p99(latencies),
        floodGrowthKb: (rssPeak - rssBefore) / 1024,
        floodLiveGrowthKb: (livePeak - liveBefore) / 1024,
        floodMbPerSecond: floodBytes / 1024 / 1024 / (floodMs / 1000),
      },
      requests: echoes,
      errors: 0,
      firstError: undefined,
    };
  } finally {
    await fake.close().catch(() => undefined);
    await server.stop();
  }
};

export const terminalScenario: Scenario = {
  id: 'terminal',
  hasReference: false,
  extra: true,
  rows: [
    {
      name: 'Terminal echo round trip p99 (browser → server → device → back)',
      metric: 'p99Ms',
      unit: 'ms',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
    {
      name: 'Server memory held while a 10 MB cat is drawn (growth, after a GC per sample)',
      metric: 'floodLiveGrowthKb',
      unit: 'KB',
      goal: { kind: 'absolute', better: 'lower', target: 4096 },
      goalText: '≤ a few MB',
    },
    {
      name: 'Server RSS growth while a 10 MB cat is drawn (garbage included)',
      metric: 'floodGrowthKb',
      unit: 'KB',
      goal: { kind: 'none' },
      goalText: 'reported',
    },
  ],
  measure: (_side, env) => measureTerminal(env),
};
