import { startSimulator, type Simulator } from '@flotilla/agent/simulator';
import type { ApiUser } from './api-setup.js';
import { baseUrl } from './browser.js';

export type SimulatedDevice = { id: number; uuid: string; device_name: string };

// Simulated devices (the real agent in simulator mode) registered into a fleet with a fresh
// provisioning key, on fast intervals so a scenario sees state changes within seconds.
export const simulateDevices = async (
  owner: ApiUser,
  fleet: { id: number; slug: string },
  count: number,
): Promise<Simulator> => {
  const key = await owner.client.request<string>({
    method: 'POST',
    path: `/api-key/application/${fleet.id}/provisioning`,
    body: { name: 'e2e simulator' },
  });
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
  });
};

// Waits until the fleet has `count` registered devices and answers them, through the API.
export const registeredDevices = async (
  owner: ApiUser,
  fleetId: number,
  count: number,
): Promise<SimulatedDevice[]> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const devices: SimulatedDevice[] = await owner.client.pine.get({
      resource: 'device',
      options: {
        $select: ['id', 'uuid', 'device_name'],
        $filter: { belongs_to__application: fleetId },
        $orderby: { id: 'asc' },
      },
    });
    if (devices.length >= count) return devices;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the fleet never got ${count} devices`);
};
