import { type SimulatorOptions, startSimulator, type Simulator } from '@flotilla/agent/simulator';
import type { SimulatedDeviceHandle } from '@flotilla/agent/simulator-device';
import type { BalenaSDK } from 'balena-sdk';
import { waitUntil } from './balena-sdk-setup.js';

// The real agent in simulator mode on timings fast enough for API tests: devices register, poll,
// report, log and power-cycle within a few seconds.
export const startFastSimulator = (
  api: string,
  fleet: { id: number; slug: string; provisioningKey: string; count: number },
  overrides: Partial<SimulatorOptions> = {},
): Promise<Simulator> =>
  startSimulator({
    api,
    fleets: [
      {
        slug: fleet.slug,
        provisioningKey: fleet.provisioningKey,
        count: fleet.count,
        applicationId: fleet.id,
        deviceType: 'raspberrypi4-64',
        // One type for every device: registration never falls back, timings stay predictable.
        deviceTypes: ['raspberrypi4-64'],
      },
    ],
    pollIntervalMs: 1500,
    reportIntervalMs: 1000,
    downloadMs: [200, 400],
    stepMs: 100,
    logIntervalMs: [400, 900],
    rebootOfflineMs: [3000, 3500],
    startSpreadMs: 200,
    requestTimeoutMs: 10_000,
    powerDelayMs: 200,
    cloudlink: { reconnect: { baseMs: 300, maxMs: 2000 } },
    logStream: { flushDelayMs: 50, cooldownMs: 500 },
    ...overrides,
  });

export type ReadyDevice = { handle: SimulatedDeviceHandle; uuid: string; id: number };

// Waits until the handle has registered and the server shows its cloudlink as connected.
export const waitUntilConnected = async (
  sdk: BalenaSDK,
  handle: SimulatedDeviceHandle,
  timeoutMs = 60_000,
): Promise<ReadyDevice> => {
  const started = Date.now();
  const registered = await waitUntil(
    `${handle.name} to register`,
    () => ({ uuid: handle.uuid, phase: handle.phase }),
    (state) => state.uuid !== null || state.phase === 'failed',
    { timeoutMs },
  );
  const uuid = registered.uuid;
  if (uuid === null) throw new Error(`${handle.name} could not register: ${handle.error}`);
  const device = await waitUntil(
    `${handle.name}'s cloudlink to show as connected`,
    () => sdk.models.device.get(uuid, { $select: ['id', 'is_connected_to_vpn'] }),
    (row) => row.is_connected_to_vpn,
    { timeoutMs: Math.max(1000, timeoutMs - (Date.now() - started)) },
  );
  return { handle, uuid, id: device.id };
};

// Whether the server shows the device's cloudlink as connected right now.
export const isConnected = async (sdk: BalenaSDK, uuid: string): Promise<boolean> =>
  (await sdk.models.device.get(uuid, { $select: ['is_connected_to_vpn'] })).is_connected_to_vpn;
