import { startSimulator, type Simulator } from '@flotilla/agent/simulator';
import type { ApiUser } from './api-setup.js';
import { waitUntil } from './balena-sdk-setup.js';
import { baseUrl } from './browser.js';

export type SimulatedDevice = { id: number; uuid: string; device_name: string };

// Simulated devices (the real agent in simulator mode) registered into a fleet with a fresh
// provisioning key, on fast intervals so a scenario sees state changes within seconds.
export const simulateDevices = async (
  owner: ApiUser,
  fleet: { id: number; slug: string },
  count: number,
  // A provisioning key made elsewhere (the console); by default a fresh one.
  provisioningKey?: string,
  // A seed makes the devices' names (and what follows from them) the same on every run.
  seed?: number,
): Promise<Simulator> => {
  const key =
    provisioningKey ??
    (await owner.client.request<string>({
      method: 'POST',
      path: `/api-key/application/${fleet.id}/provisioning`,
      body: { name: 'e2e simulator' },
    }));
  return startSimulator({
    api: baseUrl(),
    fleets: [
      {
        slug: fleet.slug,
        provisioningKey: key,
        count,
        applicationId: fleet.id,
        deviceType: 'raspberrypi4-64',
      },
    ],
    pollIntervalMs: 2000,
    reportIntervalMs: 1000,
    downloadMs: [500, 1000],
    stepMs: 200,
    // Longer than the device page's 15 s refresh, so the offline period is seen.
    rebootOfflineMs: [20_000, 22_000],
    startSpreadMs: 300,
    ...(seed === undefined ? {} : { seed }),
  });
};

// Waits until the simulator's devices have registered and booted (their own signal), then until
// the API shows each of them online with its cloudlink connected, which a page opened afterwards
// shows on its first render. Deadlines are for a busy machine; each wait ends when it holds.
export const devicesOnline = async (
  owner: ApiUser,
  fleetId: number,
  simulator: Simulator,
): Promise<SimulatedDevice[]> => {
  await Promise.all(simulator.devices.map((handle) => handle.waitFor('online', 60_000)));
  const uuids = simulator.devices.map((handle) => handle.uuid);
  const rows = await waitUntil(
    'the simulated devices to show as online',
    async () =>
      await owner.client.pine.get({
        resource: 'device',
        options: {
          $select: ['id', 'uuid', 'device_name', 'overall_status', 'is_connected_to_vpn'],
          $filter: { belongs_to__application: fleetId },
          $orderby: { id: 'asc' },
        },
      }),
    (current) =>
      uuids.every((uuid) =>
        current.some(
          (row) =>
            row.uuid === uuid && row.overall_status === 'operational' && row.is_connected_to_vpn,
        ),
      ),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  return rows.map(({ id, uuid, device_name }) => ({ id, uuid, device_name }));
};

// A fleet's simulated devices, started and online: the slug looked up, the simulator started,
// its devices waited for (in id order).
export const simulateOnline = async (
  owner: ApiUser,
  fleetId: number,
  count: number,
  seed?: number,
): Promise<{ simulator: Simulator; devices: SimulatedDevice[] }> => {
  const [fleet] = await owner.client.pine.get({
    resource: 'application',
    options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
  });
  if (!fleet) throw new Error(`fleet ${fleetId} missing`);
  const simulator = await simulateDevices(owner, fleet, count, undefined, seed);
  try {
    return { simulator, devices: await devicesOnline(owner, fleetId, simulator) };
  } catch (error) {
    await simulator.stop();
    throw error;
  }
};
