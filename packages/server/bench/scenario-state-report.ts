import type { ReportDevice } from './load-jobs.js';
import type { BenchEnv, Scenario } from './scenario.js';
import { baseUrlOf, bearer, forEachLimited, throughputRatio } from './scenario-helpers.js';
import { stateReportBody } from './workload-state-report.js';

// State reports in steady state (PATCH /device/v3/state): each device made its first, full
// report before the rounds (prepare); during them it reports the same state again with new
// metrics. The reference takes the same bodies and writes them with one batched UPDATE.

const reportDevices = (env: BenchEnv, withKeys: boolean): ReportDevice[] =>
  env.devices.map((device) => ({
    id: device.id,
    uuid: device.uuid,
    fleetUuid: device.fleetUuid,
    commit: device.commit,
    images: device.images,
    headers: withKeys ? bearer(device.key) : {},
  }));

const firstReports = async (env: BenchEnv): Promise<void> => {
  const devices = reportDevices(env, true);
  await forEachLimited(devices, 16, async (device) => {
    const response = await fetch(`${env.flotilla.url}/device/v3/state`, {
      method: 'PATCH',
      headers: { ...device.headers, 'content-type': 'application/json' },
      body: JSON.stringify(stateReportBody(device, 0)),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`first report of ${device.uuid} answered ${response.status}: ${text}`);
    }
  });
};

export const stateReportScenario: Scenario = {
  id: 'state-report',
  rows: [throughputRatio('state report, steady state (vs batched UPDATE route)', 'req/s', 0.66)],
  prepare: firstReports,
  sample(env) {
    const device = reportDevices(env, true)[0];
    if (!device) throw new Error('no devices');
    return {
      method: 'PATCH',
      path: '/device/v3/state',
      headers: { ...device.headers, 'content-type': 'application/json' },
      body: JSON.stringify(stateReportBody(device, 1)),
      expect: [200],
    };
  },
  measure(side, env, window) {
    return env.load.run(
      {
        kind: 'state-reports',
        baseUrl: baseUrlOf(env, side),
        path: side === 'flotilla' ? '/device/v3/state' : '/ref/state',
        concurrency: env.options.throughputConcurrency,
        devices: reportDevices(env, side === 'flotilla'),
      },
      window,
    );
  },
};
