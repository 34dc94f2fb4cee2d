import type { Pool } from 'undici';
import type { ReportDevice } from './load-jobs.js';
import { send } from './load-http.js';

// State reports in steady state: every device reports the same full state again and again (same
// release, services and addresses), only its metrics move, as a supervisor does between changes.
// The first (full, changing) report of every device was made before the rounds (prepare).

export const stateReportBody = (device: ReportDevice, n: number): Record<string, unknown> => {
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
      ip_address: `192.168.${(device.id >> 8) % 256}.${device.id % 256} 10.114.0.2`,
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

// Round-robin over the devices, so concurrent reports never belong to one device.
export const stateReportOp = (
  pool: Pool,
  path: string,
  devices: readonly ReportDevice[],
): (() => Promise<void>) => {
  let n = 0;
  return async () => {
    const device = devices[n % devices.length];
    if (!device) throw new Error('no devices');
    const body = JSON.stringify(stateReportBody(device, n++));
    await send(pool, {
      method: 'PATCH',
      path,
      headers: { ...device.headers, 'content-type': 'application/json' },
      body,
      expect: [200, 204],
    });
  };
};
