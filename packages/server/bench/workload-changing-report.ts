import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { createHistogram, percentileMillis, recordMillis } from './histogram.js';
import type { ReportDevice } from './load-jobs.js';
import { send } from './load-http.js';
import type { Measure } from './scenario.js';

// Changing state reports, as balena-supervisor sends them while it updates: each step changes
// fields stored on the device (status, update_status, download_progress) and on its image
// installs (status, download_progress). The steps of one update, in order:
export const updateSteps = [
  { progress: 0, service: 'Downloading', update: 'downloading', device: 'Downloading' },
  { progress: 40, service: 'Downloading', update: 'downloading', device: 'Downloading' },
  { progress: 100, service: 'Downloaded', update: 'downloaded', device: 'Downloading' },
  { progress: null, service: 'Installing', update: 'applying changes', device: 'Installing' },
  { progress: null, service: 'Running', update: 'done', device: 'Idle' },
] as const;

// Step `step` of an update from `running` to `target` (target's images): until the last step
// the device still runs `running`; the last one reports `target` as running.
export const changingReportBody = (
  device: ReportDevice,
  step: number,
  target: { commit: string; images: Record<string, string> },
  ipSuffix: number,
): Record<string, unknown> => {
  const last = updateSteps.length - 1;
  const at = updateSteps[Math.min(step, last)] ?? updateSteps[0];
  const services = Object.fromEntries(
    Object.entries(target.images).map(([name, image]) => [
      name,
      { image, status: at.service, download_progress: at.progress },
    ]),
  );
  return {
    [device.uuid]: {
      status: at.device,
      update_status: at.update,
      download_progress: at.progress,
      ip_address: `192.168.${(device.id >> 8) % 256}.${device.id % 256} 10.114.${ipSuffix % 2}.2`,
      cpu_usage: step % 100,
      apps: {
        [device.fleetUuid]: {
          release_uuid: step >= last ? target.commit : device.commit,
          releases: { [target.commit]: { update_status: at.update, services } },
        },
      },
    },
  };
};

const patch = (pool: Pool, path: string, device: ReportDevice, body: unknown) =>
  send(pool, {
    method: 'PATCH',
    path,
    headers: { ...device.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    expect: [200, 204],
  });

// Changing reports in a closed loop: round-robin over the devices, each device walking the steps
// of an update of its own release again and again (so every report changes what is stored).
export const changingReportOp = (
  pool: Pool,
  path: string,
  devices: readonly ReportDevice[],
): (() => Promise<void>) => {
  let n = 0;
  const sent = new Map<number, number>();
  return async () => {
    const device = devices[n % devices.length];
    n += 1;
    if (!device) throw new Error('no devices');
    const count = sent.get(device.id) ?? 0;
    sent.set(device.id, count + 1);
    const target = { commit: device.commit, images: device.images };
    await patch(
      pool,
      path,
      device,
      changingReportBody(device, count % updateSteps.length, target, count),
    );
  };
};

// A rollout burst: every device walks the steps of its update to `target` (one report after
// another, as a supervisor does), `concurrency` devices at a time, all of them queued at once.
// Measures each report's latency and the time until the last device reported the release.
export const runRolloutBurst = async (
  pool: Pool,
  path: string,
  devices: readonly ReportDevice[],
  target: { commit: string; images: Record<string, string> },
  concurrency: number,
): Promise<Measure> => {
  const histogram = createHistogram();
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    for (let device = devices[next++]; device; device = devices[next++]) {
      for (let step = 0; step < updateSteps.length; step += 1) {
        const begun = performance.now();
        try {
          await patch(pool, path, device, changingReportBody(device, step, target, step));
          recordMillis(histogram, performance.now() - begun);
        } catch (error) {
          errors += 1;
          firstError ??= (error instanceof Error ? error.message : String(error)).slice(0, 300);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const allDoneMs = performance.now() - start;
  return {
    metrics: {
      opsPerSecond: (histogram.total * 1000) / allDoneMs,
      p50Ms: percentileMillis(histogram, 50),
      p99Ms: percentileMillis(histogram, 99),
      allDoneMs,
    },
    requests: histogram.total,
    errors,
    firstError,
  };
};
