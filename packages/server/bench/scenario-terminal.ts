import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectFakeDevice } from '../src/test-support/fake-device-client.js';
import { createFakeShells } from '../src/test-support/fake-shells.js';
import { connectTerminal } from '../src/test-support/terminal-client.js';
import type { BenchEnv, Measure, Scenario } from './scenario.js';

// The web terminal (issue 9 section 2), Flotilla alone: a fresh server process, one fake device
// on its cloudlink (fake-shells.ts: an echo shell honouring the flow-control window) and one
// browser-side client. Echo round trip: a line typed, its echo read back, one after the other.
// Then a 10 MB `flood` drawn by a client acknowledging as it reads, while the server's RSS is
// sampled: its growth above the idle baseline shows that no hop buffers the output.
// The peak includes garbage: each hop allocates a buffer per 16 KiB frame, and V8 collects
// them only under memory pressure. Sampled after a forced GC every 10 ms (an in-process probe
// of server, fake device and client), the growth stays under 0.5 MB for a 10 MB flood while
// the device's unacknowledged output peaks at the 256 KiB window: no hop keeps a backlog.

const echoes = 300;
const floodBytes = 10 * 1024 * 1024;
const rssSampleMs = 50;

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
    await server.collectGarbage();
    const before = await server.rssBytes();
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await server.rssBytes());
        await sleep(rssSampleMs);
      }
    })();
    const floodClient = connectTerminal(server.url, {
      token: env.tokens.admin,
      uuid: device.uuid,
      target: { kind: 'host' },
      keepText: false,
    });
    await floodClient.waitForMessage('ready');
    const floodStarted = performance.now();
    floodClient.send(`flood ${floodBytes}\n`);
    // Counted, not kept as text: done once every byte and the closing line arrived.
    while (floodClient.received < floodBytes) await sleep(20);
    const floodMs = performance.now() - floodStarted;
    sampling = false;
    await sampler;
    client.socket.close();
    floodClient.socket.close();
    return {
      metrics: {
        opsPerSecond: Number.NaN,
        p50Ms: Number.NaN,
        p99Ms: p99(latencies),
        floodGrowthKb: (peak - before) / 1024,
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
      name: 'Server RSS growth while a 10 MB cat is drawn',
      metric: 'floodGrowthKb',
      unit: 'KB',
      goal: { kind: 'absolute', better: 'lower', target: 4096 },
      goalText: '≤ a few MB',
    },
  ],
  measure: (_side, env) => measureTerminal(env),
};
