import type { ReportDevice } from './load-jobs.js';
import type { BenchDevice } from './protocol-devices.js';
import type { Scenario } from './scenario.js';
import { baseUrlOf, bearer, throughputRatio } from './scenario-helpers.js';

// State reports that change fields stored on the device and its image installs, as a supervisor
// sends them while it updates (workload-changing-report.ts): each device walks the steps of an
// update of its own release (download progress 0, 40, 100 %, installing, done) again and again,
// and its address changes on every report, so no report repeats the stored state. The reference
// (reference-changing-state.ts) writes the same fields of the same rows, batched, with the
// contact time.

// The devices as the load generator needs them (device keys on Flotilla's side only).
export const changingReportDevices = (
  devices: readonly BenchDevice[],
  withKeys: boolean,
): ReportDevice[] =>
  devices.map((device) => ({
    id: device.id,
    uuid: device.uuid,
    fleetUuid: device.fleetUuid,
    commit: device.commit,
    images: device.images,
    headers: withKeys ? bearer(device.key) : {},
  }));

export const changingStateReportScenario: Scenario = {
  id: 'state-report-changing',
  rows: [
    throughputRatio(
      'state report changing stored fields: update steps, new address (vs batched UPDATE route)',
      'req/s',
      0.5,
    ),
  ],
  measure(side, env, window) {
    return env.load.run(
      {
        kind: 'state-reports',
        changing: true,
        baseUrl: baseUrlOf(env, side),
        path: side === 'flotilla' ? '/device/v3/state' : '/ref/state-changing',
        concurrency: env.options.throughputConcurrency,
        devices: changingReportDevices(env.devices, side === 'flotilla'),
      },
      window,
    );
  },
};
