import { runLoad } from './measure.js';
import { deviceCall, failure, fromStats, integer, roundRobin } from './protocol-helpers.js';
import type { ProtocolDevice, ProtocolEnv, ProtocolResult } from './protocol-types.js';

// Protocol scenario (a): state reports, PATCH /device/v3/state.

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

export const stateReports = async (
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
