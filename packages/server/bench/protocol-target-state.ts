import { performance } from 'node:perf_hooks';
import { runEach, runLoad } from './measure.js';
import { deviceCall, fromStats, integer, percent, roundRobin } from './protocol-helpers.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// Protocol scenario (b): target-state polls, first and conditional (If-None-Match).

export const targetStatePolls = async (
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
