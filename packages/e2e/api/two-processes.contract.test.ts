import { randomBytes } from 'node:crypto';
import type { Simulator } from '@flotilla/agent/simulator';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BalenaFleet,
  createBalenaFleet,
  failureOf,
  provisioningKeyFor,
  registerBalenaUser,
  sdkWithToken,
  waitUntil,
} from '../support/balena-sdk-setup.js';
import {
  type ReadyDevice,
  startFastSimulator,
  waitUntilConnected,
} from '../support/fast-simulator.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

type LogLine = { message: string; timestamp: number };

// Two real server processes on one database: A runs in this process (startTestServer), B is a
// child Node process (startServer, as `npm start` runs it). A device holds its cloudlink on one
// of them; the SDK talks to the other, which routes the action through PostgreSQL LISTEN/NOTIFY
// to the holder and the answer back. Log lines written by one reach live streams on the other.
describe('two server processes on one database', () => {
  let serverA: TestServer | undefined;
  let processB: ServerProcess | undefined;
  const simulators: Simulator[] = [];
  let sdkA: BalenaSDK;
  let sdkB: BalenaSDK;
  let fleet: BalenaFleet;
  let provisioningKey: string;
  // Its cloudlink goes to A / to B.
  let onA: ReadyDevice;
  let onB: ReadyDevice;

  const startDevice = async (apiUrl: string, sdk: BalenaSDK): Promise<ReadyDevice> => {
    const simulator = await startFastSimulator(apiUrl, { ...fleet, provisioningKey, count: 1 });
    simulators.push(simulator);
    const [handle] = simulator.devices;
    if (!handle) throw new Error('the simulator has no device');
    return waitUntilConnected(sdk, handle, 60_000);
  };

  // The node holding each device's cloudlink, as the database records it.
  const holders = async (): Promise<Map<number, string>> => {
    if (!serverA) throw new Error('no server A');
    const { rows } = await serverA.db.query<{ device: number; node_id: string }>(
      'SELECT "device", "node_id" FROM "cloudlink_session"',
    );
    return new Map(rows.map((row) => [row.device, row.node_id]));
  };

  beforeAll(async () => {
    const secret = randomBytes(32).toString('hex');
    serverA = await startTestServer({ jwtSecret: new TextEncoder().encode(secret) });
    processB = await startServerProcess({
      databaseUrl: serverA.db.url,
      jwtSecret: secret,
      // B may reuse a resolved token for 5 minutes: only A's notification can end it sooner.
      env: { FLOTILLA_AUTH_CACHE_SECONDS: '300' },
      startTimeoutMs: 90_000,
    });
    const owner = await registerBalenaUser(serverA.url, 'two-processes');
    sdkA = owner.sdk;
    // The same session token, signed by A, is accepted by B.
    sdkB = await sdkWithToken(processB.url, owner.token);
    fleet = await createBalenaFleet(sdkA, 'two-processes');
    provisioningKey = await provisioningKeyFor(sdkA, fleet.id);
    [onA, onB] = await Promise.all([
      startDevice(serverA.url, sdkA),
      // Registered through B, with the key A issued.
      startDevice(processB.url, sdkB),
    ]);
    // A second server process and two devices: minutes on a busy machine, seconds idle.
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(simulators.map((simulator) => simulator.stop()));
    // B first: A's close drops the database B uses.
    await processB?.stop();
    await serverA?.close();
  });

  it('both processes serve the API and each holds one device’s cloudlink', async () => {
    expect(processB?.url).not.toBe(serverA?.url);
    const whoA = await sdkA.auth.whoami();
    const whoB = await sdkB.auth.whoami();
    expect(whoB).toEqual(whoA);
    const held = await holders();
    const nodeOfA = held.get(onA.id);
    const nodeOfB = held.get(onB.id);
    expect(nodeOfA).toEqual(expect.any(String));
    expect(nodeOfB).toEqual(expect.any(String));
    expect(nodeOfA).not.toBe(nodeOfB);
  });

  it('an SDK call on B reaches a device connected to A', async () => {
    const before = onA.handle.device.blinks;
    await sdkB.models.device.identify(onA.uuid);
    expect(onA.handle.device.blinks).toBe(before + 1);
    const state = await sdkB.models.device.getSupervisorState(onA.uuid);
    expect(state).toMatchObject({
      api_port: 48484,
      os_version: onA.handle.device.profile.osVersion,
      supervisor_version: onA.handle.device.profile.supervisorVersion,
      ip_address: onA.handle.device.profile.ipAddress,
    });
  });

  it('an SDK call on A reaches a device connected to B', async () => {
    const before = onB.handle.device.blinks;
    await sdkA.models.device.identify(onB.uuid);
    expect(onB.handle.device.blinks).toBe(before + 1);
    const state = await sdkA.models.device.getSupervisorState(onB.uuid);
    expect(state).toMatchObject({
      api_port: 48484,
      os_version: onB.handle.device.profile.osVersion,
      supervisor_version: onB.handle.device.profile.supervisorVersion,
      ip_address: onB.handle.device.profile.ipAddress,
    });
  });

  it('a device’s answer passes back through the other process unchanged (update lock → 423)', async () => {
    onA.handle.setUpdateLock(true);
    try {
      const refused = await failureOf(sdkB.models.device.reboot(onA.uuid));
      expect(refused.code, refused.message).toBe('BalenaSupervisorLockedError');
      expect(onA.handle.phase).toBe('online');
    } finally {
      onA.handle.setUpdateLock(false);
    }
  });

  it('an API key revoked through A is refused by B, which had it cached', async () => {
    if (!processB) throw new Error('no process B');
    const urlB = processB.url;
    const name = `two-processes-${randomBytes(4).toString('hex')}`;
    const key = await sdkA.models.apiKey.create({ name, expiryDate: null });
    const whoamiOnB = async (): Promise<number> =>
      (await fetch(`${urlB}/actor/v1/whoami`, { headers: { authorization: `Bearer ${key}` } }))
        .status;
    expect(await whoamiOnB()).toBe(200);
    const [created] = (await sdkA.models.apiKey.getAllNamedUserApiKeys()).filter(
      (apiKey) => apiKey.name === name,
    );
    if (!created) throw new Error('the new key is not listed');
    await sdkA.models.apiKey.revoke(created.id);
    // Well within B's 300 s cache lifetime: B refuses the key because A's change reached it.
    await waitUntil('B refusing the revoked key', whoamiOnB, (status) => status === 401, {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
  });

  it('log lines uploaded to A appear in a logs.subscribe stream opened on B', async () => {
    const deviceKey = onA.handle.deviceApiKey;
    if (!deviceKey || !serverA) throw new Error('device A has no key');
    const urlA = serverA.url;
    const upload = async (message: string): Promise<void> => {
      const response = await fetch(`${urlA}/device/v2/${onA.uuid}/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${deviceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ message, timestamp: Date.now(), isSystem: false }]),
      });
      expect(response.status).toBe(201);
    };
    const subscription = await sdkB.logs.subscribe(onA.uuid, { count: 0 });
    const received: string[] = [];
    subscription.on('line', (line: LogLine) => received.push(line.message));
    try {
      // Until the stream is surely open: the first line that arrives proves it is.
      const marker = `routed-${randomBytes(4).toString('hex')}`;
      let sent = 0;
      await waitUntil(
        'a first uploaded line on B’s stream',
        async () => {
          if (!received.some((message) => message.startsWith(marker))) {
            await upload(`${marker} #${++sent}`);
          }
          return received;
        },
        (messages) => messages.some((message) => message.startsWith(marker)),
        { intervalMs: 500 },
      );
      // The stream is live now: this line can only reach B through the database's NOTIFY.
      const live = `${marker} live`;
      await upload(live);
      await waitUntil(
        'the live line on B’s stream',
        () => received,
        (messages) => messages.includes(live),
        { intervalMs: 100 },
      );
      // The device's own stream to A reaches B's history as well.
      const history = (await sdkB.logs.history(onA.uuid)) as LogLine[];
      expect(history.map((line) => line.message)).toEqual(
        expect.arrayContaining(['Supervisor starting', live]),
      );
    } finally {
      subscription.unsubscribe();
    }
  });
});
