import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { CloudlinkError } from './cloudlink-error.js';
import { type CloudlinkOptions, maxActionTimeoutMs } from './cloudlink-options.js';
import {
  connectFakeDevice,
  type FakeDevice,
  type FakeDeviceOptions,
} from '../../test-support/fake-device-client.js';
import type { Cloudlink } from './register-cloudlink.js';
import { closeSession } from './session-store.js';
import { waitFor } from '../../test-support/wait-for.js';

type Node = { app: FastifyInstance; ctx: AppContext; cloudlink: Cloudlink; url: string };

// Short timings so timeouts, sweeps and keep-alives happen within a test.
const fast: Partial<CloudlinkOptions> = {
  actionTimeoutMs: 1_000,
  nodeHeartbeatMs: 200,
  nodeStaleAfterMs: 2_000,
};

// One server process: the whole app plus the cloudlink (a no-op if server.ts already wires it).
const startNode = async (
  db: Database,
  options: Partial<CloudlinkOptions> = fast,
): Promise<Node> => {
  const ctx = createTestContext(db);
  const { app, cloudlink } = composeServer(ctx, { cloudlink: options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, ctx, cloudlink, url };
};

// What the server does when a replaced connection's socket closes: end that connection's session.
const closeOlder = (device: { id: number }, connectionId: string | undefined): Promise<boolean> =>
  closeSession(db, { deviceId: device.id, connectionId: connectionId ?? '', now: new Date() });

const failureOf = async (work: Promise<unknown>): Promise<CloudlinkError> => {
  try {
    await work;
  } catch (error) {
    if (error instanceof CloudlinkError) return error;
    throw error;
  }
  throw new Error('expected a CloudlinkError');
};

let db: Database;
let fleet: fx.FleetFixture;
let userKey: string;

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `dev-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

const vpnState = async (deviceId: number) => {
  const { rows } = await db.query<{ connected: boolean; event: Date | null }>(
    'SELECT "is_connected_to_vpn" AS connected, "last_vpn_event" AS event FROM "device" WHERE "id" = $1',
    [deviceId],
  );
  return rows[0];
};
// When the device's own link was lost (0057), or null.
const lostAt = async (deviceId: number): Promise<Date | null | undefined> =>
  (
    await db.query<{ lost: Date | null }>(
      'SELECT "cloudlink_lost_at" AS "lost" FROM "device" WHERE "id" = $1',
      [deviceId],
    )
  ).rows[0]?.lost;
const isConnected = async (deviceId: number): Promise<boolean> =>
  (await vpnState(deviceId))?.connected === true;
const sessionOf = async (deviceId: number) =>
  (
    await db.query<{ node_id: string; connection_id: string }>(
      'SELECT "node_id", "connection_id" FROM "cloudlink_session" WHERE "device" = $1',
      [deviceId],
    )
  ).rows[0];

// Connects and waits until the server has recorded the session (the handshake alone does not).
const connect = async (
  node: Node,
  device: Device,
  options: FakeDeviceOptions = {},
): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(node.url, device.key, { uuid: device.uuid, ...options });
  await waitFor(
    'the session',
    async () => (await sessionOf(device.id))?.node_id === node.cloudlink.nodeId,
  );
  return fake;
};

beforeAll(async () => {
  db = await createTestDatabase();
  const organization = await fx.createOrganization(db, 'Linkers');
  fleet = await fx.createFleet(db, organization, 'Linked');
  const user = await fx.createUser(db, 'linker');
  await fx.addFleetMember(db, user.userId, fleet.id, 'operator');
  userKey = await createApiKey(db, user.actorId, { name: 'user key' });
});
afterAll(async () => {
  await db?.close();
});

describe('cloudlink on one server', () => {
  let node: Node;
  beforeAll(async () => {
    node = await startNode(db);
  });
  afterAll(async () => {
    await node?.app.close();
  });

  it('marks the device connected while its cloudlink lasts', async () => {
    const device = await newDevice();
    expect(await vpnState(device.id)).toEqual({ connected: false, event: null });
    const fake = await connect(node, device);
    const connected = await vpnState(device.id);
    expect(connected?.connected).toBe(true);
    expect(connected?.event).toBeInstanceOf(Date);
    expect(node.cloudlink.localConnectionCount()).toBeGreaterThanOrEqual(1);

    await fake.close();
    await waitFor('the disconnect', async () => !(await isConnected(device.id)));
    expect(await sessionOf(device.id)).toBeUndefined();
    const gone = await vpnState(device.id);
    expect(gone?.event?.getTime()).toBeGreaterThanOrEqual(connected?.event?.getTime() ?? 0);
    // The device's own link closed: its loss is noted (it shows offline 30 s later) ...
    expect(await lostAt(device.id)).toEqual(gone?.event);
    // ... until it links again.
    const again = await connect(node, device);
    expect(await lostAt(device.id)).toBeNull();
    await again.close();
    await waitFor('the disconnect', async () => !(await isConnected(device.id)));
  });

  it('counts the connection as a heartbeat contact', async () => {
    const device = await newDevice();
    const fake = await connect(node, device);
    await waitFor('the contact', async () => {
      const { rows } = await db.query<{ contact: Date | null }>(
        'SELECT "last_contact_at" AS contact FROM "device" WHERE "id" = $1',
        [device.id],
      );
      return rows[0]?.contact instanceof Date;
    });
    await fake.close();
  });

  it('keeps what the hello says about OS updates, and only when the hello says it', async () => {
    const device = await newDevice();
    const hostOsUpdates = async () =>
      (
        await db.query<{ value: boolean | null }>(
          'SELECT "host_os_updates" AS "value" FROM "device" WHERE "id" = $1',
          [device.id],
        )
      ).rows[0]?.value;
    const silent = await connect(node, device, { uuid: device.uuid });
    expect(await hostOsUpdates()).toBeNull();
    await silent.close();
    const refusing = await connect(node, device, { uuid: device.uuid, hostOsUpdates: false });
    await waitFor('the hello recorded', async () => (await hostOsUpdates()) === false);
    await refusing.close();
    // An agent configured for OS updates later says so, and that replaces it.
    const enabled = await connect(node, device, { uuid: device.uuid, hostOsUpdates: true });
    await waitFor('the hello recorded', async () => (await hostOsUpdates()) === true);
    await enabled.close();
  });

  it('closes a connection whose hello names another device', async () => {
    const device = await newDevice();
    const fake = await connectFakeDevice(node.url, device.key, { uuid: 'f'.repeat(32) });
    expect(await fake.closed).toEqual({
      code: 4403,
      reason: 'The hello names another device than the key',
    });
    await waitFor('the disconnect', async () => (await sessionOf(device.id)) === undefined);
  });

  it('refuses anything but a device key before upgrading', async () => {
    await expect(connectFakeDevice(node.url, userKey)).rejects.toThrow(/401/);
    await expect(connectFakeDevice(node.url, 'not-a-key')).rejects.toThrow(/401/);
    await expect(connectFakeDevice(node.url, '')).rejects.toThrow(/401/);
  });

  it('sends actions and returns the device’s answers, 423 included', async () => {
    const device = await newDevice();
    const fake = await connect(node, device);
    fake.answer = (request) =>
      request.action === 'reboot' && request.params.force !== true
        ? { status: 423, body: 'Updates are locked' }
        : { status: 200, body: { Data: 'OK', Error: null } };

    const done = await node.cloudlink.sendAction(device.id, 'reboot', { force: true });
    expect(done).toMatchObject({ type: 'result', status: 200, body: { Data: 'OK', Error: null } });
    const locked = await node.cloudlink.sendAction(device.id, 'reboot', {});
    expect(locked).toMatchObject({ status: 423, body: 'Updates are locked' });
    expect(fake.received).toEqual([
      { type: 'action', id: expect.any(String), action: 'reboot', params: { force: true } },
      { type: 'action', id: expect.any(String), action: 'reboot', params: {} },
    ]);
    await fake.close();
  });

  it('lets a newer connection replace the older one', async () => {
    const device = await newDevice();
    const older = await connect(node, device);
    const olderSession = await sessionOf(device.id);
    const newer = await connectFakeDevice(node.url, device.key);
    expect(await older.closed).toEqual({ code: 4409, reason: 'Replaced by a newer connection' });
    await waitFor(
      'the newer session',
      async () => (await sessionOf(device.id))?.connection_id !== olderSession?.connection_id,
    );
    // Whenever the server gets to the older socket's close, that close must not disconnect the
    // device: it ends only the session of its own connection, which is no longer the device's.
    expect(await closeOlder(device, olderSession?.connection_id)).toBe(false);
    expect(await isConnected(device.id)).toBe(true);
    await node.cloudlink.sendAction(device.id, 'blink', {});
    expect(older.received).toEqual([]);
    expect(newer.received.map((request) => request.action)).toEqual(['blink']);
    await newer.close();
  });

  it("hears other processes on the process's shared LISTEN connection", () => {
    expect(node.ctx.notifications.channels()).toContain(`cloudlink_${node.cloudlink.nodeId}`);
  });

  it('fails at once for a device without a cloudlink', async () => {
    const device = await newDevice();
    // Were it waiting for an answer, the 50 s would outlast the test's own timeout.
    const error = await failureOf(
      node.cloudlink.sendAction(device.id, 'ping', {}, maxActionTimeoutMs),
    );
    expect(error.failure).toBe('offline');
    expect(error.message).toBe('No online device(s) found');
  });

  it('times out a device that does not answer', async () => {
    const device = await newDevice();
    const fake = await connect(node, device, { answer: () => undefined });
    const error = await failureOf(node.cloudlink.sendAction(device.id, 'purge', { appId: 1 }));
    expect(error.failure).toBe('timeout');
    // The node's action timeout, not some other deadline.
    expect(error.message).toBe('Device did not answer within 1 s');
    expect(fake.received).toHaveLength(1);
    await fake.close();
  });

  it('fails waiting requests when the device disconnects', async () => {
    const device = await newDevice();
    const fake = await connect(node, device, { answer: () => undefined });
    const pending = failureOf(node.cloudlink.sendAction(device.id, 'shutdown', {}, 10_000));
    await waitFor('the request', () => Promise.resolve(fake.received.length === 1));
    fake.socket.terminate();
    expect((await pending).failure).toBe('disconnected');
  });

  it('ignores a session held by a node that stopped heartbeating, and sweeps it', async () => {
    const device = await newDevice();
    const deadNode = randomBytes(8).toString('hex');
    // One transaction: the node's own sweep runs every 200 ms, and one that fell between the
    // session's insert and marking the device connected would leave it connected for good.
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO "cloudlink_node" ("node_id", "seen_at") VALUES ($1, now() - interval '1 hour')`,
        [deadNode],
      );
      await tx.query(
        `INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
         VALUES ($1, $2, 'gone', now())`,
        [device.id, deadNode],
      );
      await tx.query('UPDATE "device" SET "is_connected_to_vpn" = true WHERE "id" = $1', [
        device.id,
      ]);
    });
    // Offline at once: were it waiting for the dead node, the 50 s would outlast the test.
    const error = await failureOf(
      node.cloudlink.sendAction(device.id, 'ping', {}, maxActionTimeoutMs),
    );
    expect(error.failure).toBe('offline');
    const nodeRows = async () =>
      (await db.query('SELECT 1 FROM "cloudlink_node" WHERE "node_id" = $1', [deadNode])).rowCount;
    // The sweep ends the sessions first, then drops the nodes' rows (a second statement).
    await waitFor(
      'the sweep',
      async () => !(await isConnected(device.id)) && (await nodeRows()) === 0,
    );
    expect(await sessionOf(device.id)).toBeUndefined();
  });

  it('times out a request to a node that heartbeats but never answers', async () => {
    const device = await newDevice();
    const silentNode = randomBytes(8).toString('hex');
    await db.query(
      `INSERT INTO "cloudlink_node" ("node_id", "seen_at") VALUES ($1, now() + interval '1 hour')`,
      [silentNode],
    );
    await db.query(
      `INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
       VALUES ($1, $2, 'silent', now())`,
      [device.id, silentNode],
    );
    const error = await failureOf(node.cloudlink.sendAction(device.id, 'ping', {}));
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe('Device did not answer within 1 s');
    await db.query('DELETE FROM "cloudlink_node" WHERE "node_id" = $1', [silentNode]);
  });
});

describe('cloudlink keep-alive and shutdown', () => {
  it('drops a connection that stops answering pings', async () => {
    const pool = openDatabase(db.url, { max: 3 });
    const node = await startNode(pool, { ...fast, pingIntervalMs: 100 });
    try {
      const device = await newDevice();
      // Not connect(): on a busy machine the session row may last less than one of its polls
      // (the link is dropped 100–200 ms after it opens, whenever its row is written).
      const fake = await connectFakeDevice(node.url, device.key, {
        uuid: device.uuid,
        autoPong: false,
      });
      expect((await fake.closed).code).toBe(1006);
      // Opened, then ended: both set the event, and only the end clears the flag.
      await waitFor('the disconnect', async () => {
        const state = await vpnState(device.id);
        return state?.event instanceof Date && !state.connected;
      });
      expect(await sessionOf(device.id)).toBeUndefined();
    } finally {
      await node.app.close();
      await pool.close();
    }
  });

  it('closes every cloudlink and disconnects its devices when the server stops', async () => {
    const pool = openDatabase(db.url, { max: 3 });
    const node = await startNode(pool);
    const device = await newDevice();
    const fake = await connect(node, device);
    await node.app.close();
    expect(await fake.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
    expect(await isConnected(device.id)).toBe(false);
    expect(await sessionOf(device.id)).toBeUndefined();
    // A server that stops says nothing about its devices: no loss is noted.
    expect(await lostAt(device.id)).toBeNull();
    const nodes = await db.query('SELECT 1 FROM "cloudlink_node" WHERE "node_id" = $1', [
      node.cloudlink.nodeId,
    ]);
    expect(nodes.rowCount).toBe(0);
    await pool.close();
  });
});

describe('cloudlink across two server processes', () => {
  let poolB: Database;
  let nodeA: Node;
  let nodeB: Node;
  beforeAll(async () => {
    poolB = openDatabase(db.url, { max: 5 });
    nodeA = await startNode(db);
    nodeB = await startNode(poolB);
  });
  afterAll(async () => {
    await nodeB?.app.close();
    await nodeA?.app.close();
    await poolB?.close();
  });

  it('routes a request to the process holding the device', async () => {
    const device = await newDevice();
    const fake = await connect(nodeA, device, {
      answer: () => ({ status: 200, body: { status: 'Idle', api_port: 48484 } }),
    });
    const result = await nodeB.cloudlink.sendAction(device.id, 'device-state', {});
    expect(result).toMatchObject({ status: 200, body: { status: 'Idle', api_port: 48484 } });
    expect(fake.received).toMatchObject([{ action: 'device-state', params: {} }]);
    await fake.close();
  });

  it('carries replies larger than a NOTIFY payload through the reply table', async () => {
    const device = await newDevice();
    const large = { lines: Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`) };
    const fake = await connect(nodeA, device, { answer: () => ({ status: 200, body: large }) });
    const result = await nodeB.cloudlink.sendAction(device.id, 'device-state', {});
    expect(result.body).toEqual(large);
    expect((await db.query('SELECT 1 FROM "cloudlink_reply"')).rowCount).toBe(0);
    await fake.close();
  });

  it('passes the holder’s timeout and offline answers back', async () => {
    const device = await newDevice();
    const fake = await connect(nodeA, device, { answer: () => undefined });
    const timedOut = await failureOf(nodeB.cloudlink.sendAction(device.id, 'reboot', {}, 500));
    expect(timedOut.failure).toBe('timeout');
    expect(timedOut.message).toBe('Device did not answer within 1 s');
    await fake.close();
    await waitFor('the disconnect', async () => !(await isConnected(device.id)));
    expect((await failureOf(nodeB.cloudlink.sendAction(device.id, 'reboot', {}))).failure).toBe(
      'offline',
    );
  });

  it('replaces a connection held by the other process', async () => {
    const device = await newDevice();
    const onA = await connect(nodeA, device);
    const sessionOnA = await sessionOf(device.id);
    const onB = await connect(nodeB, device);
    expect(await onA.closed).toEqual({ code: 4409, reason: 'Replaced by a newer connection' });
    // What process A does with the closed socket, whenever it gets to it, changes nothing.
    expect(await closeOlder(device, sessionOnA?.connection_id)).toBe(false);
    expect(await isConnected(device.id)).toBe(true);
    await nodeA.cloudlink.sendAction(device.id, 'blink', {});
    expect(onB.received.map((request) => request.action)).toEqual(['blink']);
    expect(onA.received).toEqual([]);
    await onB.close();
  });
});
