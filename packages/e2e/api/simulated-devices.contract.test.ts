import type { Simulator } from '@flotilla/agent/simulator';
import { seedDemoRelease } from '@flotilla/server/features/demo/demo-release';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BalenaFleet,
  type BalenaUser,
  createBalenaFleet,
  failureOf,
  provisioningKeyFor,
  registerBalenaUser,
  waitUntil,
} from '../support/balena-sdk-setup.js';
import {
  isConnected,
  type ReadyDevice,
  startFastSimulator,
  waitUntilConnected,
} from '../support/fast-simulator.js';

// Generous: a phase change that takes a second idle can take many on a busy machine.
const phaseDeadlineMs = 30_000;

type LogLine = { message: string; timestamp: number; isSystem: boolean; isStdErr: boolean };

// The real balena-sdk against the server and REAL simulated devices (the agent in simulator
// mode: provisioning, target state, state reports, the log stream and the cloudlink): every
// device action goes through the server to the device's runtime and back.
describe('balena-sdk device actions and logs against simulated devices', () => {
  let server: TestServer | undefined;
  let simulator: Simulator | undefined;
  let owner: BalenaUser;
  let sdk: BalenaSDK;
  let fleet: BalenaFleet;
  let releaseCommit: string;
  // devices[0] takes every action; devices[1] is shut down at the end.
  let devices: ReadyDevice[];

  const first = (): ReadyDevice => {
    const device = devices[0];
    if (!device) throw new Error('no simulated device');
    return device;
  };

  const history = async (uuid: string): Promise<LogLine[]> =>
    (await sdk.logs.history(uuid)) as LogLine[];

  const waitForLog = (uuid: string, message: string): Promise<LogLine[]> =>
    waitUntil(
      `the log line "${message}" from ${uuid}`,
      () => history(uuid),
      (lines) => lines.some((line) => line.message === message),
      { intervalMs: 300 },
    );

  // The server shows the cloudlink dropped (the device powered off), then connected again once
  // the device has booted. The device stays off for rebootOfflineMs: a window many polls wide
  // even when each request takes a second on a busy machine.
  const waitOfflineThenBack = async (device: ReadyDevice): Promise<void> => {
    await waitUntil(
      'the device to show as disconnected',
      () => isConnected(sdk, device.uuid),
      (connected) => !connected,
      { intervalMs: 100 },
    );
    await waitUntilConnected(sdk, device.handle, 60_000);
    await device.handle.waitFor('online', phaseDeadlineMs);
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerBalenaUser(server.url, 'simulated');
    sdk = owner.sdk;
    fleet = await createBalenaFleet(sdk, 'simulated');
    // A release with two services (as the demo has): the devices download it, run it, and
    // their services log periodically.
    await seedDemoRelease(server.db, fleet.id);
    const { rows } = await server.db.query<{ commit: string }>(
      'SELECT "commit" FROM "release" WHERE "belongs_to__application" = $1',
      [fleet.id],
    );
    releaseCommit = rows[0]?.commit ?? '';
    const provisioningKey = await provisioningKeyFor(sdk, fleet.id);
    simulator = await startFastSimulator(
      server.url,
      { ...fleet, provisioningKey, count: 2 },
      { rebootOfflineMs: [8000, 8500] },
    );
    devices = await Promise.all(
      simulator.devices.map((handle) => waitUntilConnected(sdk, handle, 60_000)),
    );
  });

  afterAll(async () => {
    await simulator?.stop();
    await server?.close();
  });

  it('the simulated devices registered into the fleet with the provisioning key', async () => {
    const inFleet = await sdk.models.device.getAllByApplication(fleet.id, {
      $select: ['uuid', 'device_name', 'is_connected_to_vpn'],
    });
    for (const device of devices) {
      expect(inFleet).toContainEqual(
        expect.objectContaining({ uuid: device.uuid, is_connected_to_vpn: true }),
      );
    }
  });

  it('device.register registers a uuid once: a second registration is a 409', async () => {
    const uuid = sdk.models.device.generateUniqueKey();
    const registered = await sdk.models.device.register(fleet.id, uuid);
    expect(registered).toEqual({
      id: expect.any(Number),
      uuid,
      api_key: expect.any(String),
    });
    const device = await sdk.models.device.get(uuid, {
      $select: ['id', 'uuid', 'is_connected_to_vpn'],
      $expand: { belongs_to__application: { $select: 'id' } },
    });
    expect(device).toMatchObject({
      id: registered.id,
      uuid,
      is_connected_to_vpn: false,
      belongs_to__application: [{ id: fleet.id }],
    });
    const again = await failureOf(sdk.models.device.register(fleet.id, uuid));
    expect(again.statusCode, again.message).toBe(409);
  });

  it('device.identify blinks the device', async () => {
    const { handle, uuid } = first();
    const before = handle.device.blinks;
    await expect(sdk.models.device.identify(uuid)).resolves.toBeUndefined();
    expect(handle.device.blinks).toBe(before + 1);
  });

  it('device.getSupervisorState answers what the device itself reports', async () => {
    const { handle, uuid } = first();
    // Once the release is downloaded and running, the state settles.
    const state = await waitUntil(
      'the device to run the release',
      () => sdk.models.device.getSupervisorState(uuid),
      (current) => current.commit === releaseCommit && current.status === 'Idle',
      { intervalMs: 300 },
    );
    const profile = handle.device.profile;
    expect(state).toMatchObject({
      api_port: 48484,
      status: 'Idle',
      os_version: profile.osVersion,
      supervisor_version: profile.supervisorVersion,
      ip_address: profile.ipAddress,
      commit: releaseCommit,
      update_pending: false,
      update_downloaded: false,
      update_failed: false,
    });
    // The same versions reached the device row through the device's own state reports.
    const row = await waitUntil(
      'the state report to reach the device row',
      () => sdk.models.device.get(uuid, { $select: ['os_version', 'supervisor_version'] }),
      (current) => current.supervisor_version === state.supervisor_version,
    );
    expect(row.os_version).toBe(state.os_version);
  });

  it('device.restartApplication restarts the services on the device', async () => {
    const { uuid } = first();
    expect(await sdk.models.device.restartApplication(uuid)).toBe('OK');
    await waitForLog(uuid, 'Restarting services');
  });

  it('device.purge purges the fleet’s data on the device', async () => {
    const { uuid } = first();
    await expect(sdk.models.device.purge(uuid)).resolves.toBeUndefined();
    await waitForLog(uuid, 'Purged application data');
  });

  it('logs.history returns what the device streamed, oldest first', async () => {
    const { uuid } = first();
    // Application lines come from the running services every second or so.
    const lines = await waitUntil(
      'application log lines',
      () => history(uuid),
      (current) => current.some((line) => !line.isSystem),
      { intervalMs: 300 },
    );
    expect(lines.map((line) => line.message)).toContain('Supervisor starting');
    for (const line of lines) {
      expect(line).toMatchObject({
        message: expect.any(String),
        timestamp: expect.any(Number),
        isSystem: expect.any(Boolean),
        isStdErr: expect.any(Boolean),
      });
    }
    const timestamps = lines.map((line) => line.timestamp);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    const lastTwo = await sdk.logs.history(uuid, { count: 2 });
    expect(lastTwo).toHaveLength(2);
  });

  it('logs.subscribe receives new lines as the device streams them', async () => {
    const { uuid } = first();
    const subscription = await sdk.logs.subscribe(uuid, { count: 0 });
    const received: LogLine[] = [];
    subscription.on('line', (line: LogLine) => received.push(line));
    const errors: unknown[] = [];
    subscription.on('error', (error: unknown) => errors.push(error));
    try {
      // The device logs the identify request: a line we know, whenever the stream is ready.
      await waitUntil(
        'the identify line on the live stream',
        async () => {
          if (!received.some((line) => line.message.startsWith('Identify'))) {
            await sdk.models.device.identify(uuid);
          }
          return received.map((line) => line.message);
        },
        (messages) => messages.includes('Identify: blinking the LED for 15 s'),
        { intervalMs: 1_000 },
      );
      // And the running services' own lines arrive too.
      await waitUntil(
        'an application line on the live stream',
        () => received,
        (lines) => lines.some((line) => !line.isSystem),
      );
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('device.reboot takes the device offline and it comes back', async () => {
    const device = first();
    expect(await sdk.models.device.reboot(device.uuid)).toEqual({ Data: 'OK', Error: null });
    await device.handle.waitFor('rebooting', phaseDeadlineMs);
    await waitOfflineThenBack(device);
    await waitForLog(device.uuid, 'Rebooting');
  });

  it('an update lock refuses reboot (BalenaSupervisorLockedError); force overrides it', async () => {
    const device = first();
    device.handle.setUpdateLock(true);
    try {
      const refused = await failureOf(sdk.models.device.reboot(device.uuid));
      expect(refused.code, refused.message).toBe('BalenaSupervisorLockedError');
      const refusedShutdown = await failureOf(
        sdk.models.device.shutdown(device.uuid, { force: false }),
      );
      expect(refusedShutdown.code, refusedShutdown.message).toBe('BalenaSupervisorLockedError');
      // Nothing happened to the device.
      expect(device.handle.phase).toBe('online');
      expect(await isConnected(sdk, device.uuid)).toBe(true);

      expect(await sdk.models.device.reboot(device.uuid, { force: true })).toEqual({
        Data: 'OK',
        Error: null,
      });
      await device.handle.waitFor('rebooting', phaseDeadlineMs);
      await waitOfflineThenBack(device);
    } finally {
      device.handle.setUpdateLock(false);
    }
  });

  it('device.shutdown turns the device off until the simulator restarts it', async () => {
    const device = devices[1];
    if (!device) throw new Error('no second simulated device');
    await expect(sdk.models.device.shutdown(device.uuid, { force: true })).resolves.toBeUndefined();
    await device.handle.waitFor('off', phaseDeadlineMs);
    await waitUntil(
      'the device to show as disconnected',
      () => isConnected(sdk, device.uuid),
      (connected) => !connected,
      { intervalMs: 100 },
    );
    // A shut-down device's power cycle ends 'off', never 'back' (the agent's simulated-device
    // tests), so no wait here could show more than this.
    expect(device.handle.phase).toBe('off');
    // Actions on it now fail at once with balena's "offline" answer.
    const offline = await failureOf(sdk.models.device.getSupervisorState(device.uuid));
    expect(offline.statusCode, offline.message).toBe(503);
    expect(offline.message).toContain('No online device(s) found');
  });
});
