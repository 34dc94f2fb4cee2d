import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from './app-context.js';
import { createApiKey } from './features/api-keys/store-api-key.js';
import type { CloudlinkOptions } from './features/cloudlink/cloudlink-options.js';
import type { Cloudlink } from './features/cloudlink/register-cloudlink.js';
import { logChannel } from './features/device-logs/log-store.js';
import { createNatsBus } from './infra/bus/nats-bus.js';
import { type Database, openDatabase } from './infra/db/database.js';
import { composeServer } from './server.js';
import { connectFakeDevice, type FakeDevice } from './test-support/fake-device-client.js';
import { createFakeShells } from './test-support/fake-shells.js';
import * as fx from './test-support/fixtures.js';
import { type NatsServer, startNatsServer } from './test-support/nats-server.js';
import { connectTerminal } from './test-support/terminal-client.js';
import { createTestContext } from './test-support/test-context.js';
import { createTestDatabase } from './test-support/test-database.js';
import { waitFor } from './test-support/wait-for.js';

// Two server processes (each its own pool) sharing one real nats-server (FLOTILLA_NATS_URL):
// device-log fan-out, cloudlink actions and terminals cross between them over NATS, and no
// NOTIFY is sent on those channels (a LISTEN connection of the test hears every one that is).

type Node = { app: FastifyInstance; ctx: AppContext; cloudlink: Cloudlink; url: string };

const fast: Partial<CloudlinkOptions> = {
  actionTimeoutMs: 2_000,
  nodeHeartbeatMs: 200,
  nodeStaleAfterMs: 2_000,
};
const quiet = { warn: () => undefined, info: () => undefined };

let db: Database;
let poolB: Database;
let nats: NatsServer;
let nodeA: Node;
let nodeB: Node;
let fleet: fx.FleetFixture;
let userKey: string;
let watcher: pg.PoolClient;
const notified: string[] = [];

const startNode = async (pool: Database): Promise<Node> => {
  const bus = createNatsBus(nats.url, quiet, { retryMinMs: 50, retryMaxMs: 200 });
  const ctx = createTestContext(pool, { bus });
  const { app, cloudlink } = composeServer(ctx, { cloudlink: fast });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, ctx, cloudlink, url };
};

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `dev-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

// A device connected to `node`, once the server has recorded its session.
const online = async (node: Node, device: Device, options = {}): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(node.url, device.key, { uuid: device.uuid, ...options });
  await waitFor('the session', async () => {
    const { rows } = await db.query<{ node_id: string }>(
      'SELECT "node_id" FROM "cloudlink_session" WHERE "device" = $1',
      [device.id],
    );
    return rows[0]?.node_id === node.cloudlink.nodeId;
  });
  return fake;
};

// A live log tail (GET ?stream=1) read as it arrives.
const openTail = (url: string): Promise<{ messages(): string[]; close(): void }> =>
  new Promise((resolve, reject) => {
    let text = '';
    const request = http.get(url, { headers: { authorization: `Bearer ${userKey}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', () => undefined);
      resolve({
        messages: () =>
          text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => (JSON.parse(line) as { message: string }).message),
        close: () => request.destroy(),
      });
    });
    request.on('error', () => undefined);
  });

const postLog = (node: Node, device: Device, message: string) =>
  node.app.inject({
    method: 'POST',
    url: `/device/v2/${device.uuid}/logs`,
    headers: { authorization: `Bearer ${device.key}` },
    payload: [{ message, timestamp: Date.now() }],
  });

// A tail on `node` of a device with one stored line: the stream starts with that history (a
// stream with nothing to send yet would answer with the first keep-alive only).
const tailOn = async (node: Node, device: Device) => {
  expect((await postLog(node, device, 'first')).statusCode).toBe(201);
  await waitFor('the first line stored', async () => {
    const { rows } = await db.query('SELECT 1 FROM "device_log" WHERE "device" = $1', [device.id]);
    return rows.length === 1;
  });
  return openTail(`${node.url}/device/v2/${device.uuid}/logs?stream=1&count=1`);
};

beforeAll(async () => {
  db = await createTestDatabase();
  nats = await startNatsServer();
  poolB = openDatabase(db.url, { max: 5 });
  nodeA = await startNode(db);
  nodeB = await startNode(poolB);
  const organization = await fx.createOrganization(db, 'Spread');
  fleet = await fx.createFleet(db, organization, 'Wide');
  const user = await fx.createUser(db, 'spreader');
  await fx.addFleetMember(db, user.userId, fleet.id, 'operator');
  userKey = await createApiKey(db, user.actorId, { name: 'user key' });
  watcher = await db.connect();
  watcher.on('notification', ({ channel }) => notified.push(channel));
  for (const channel of [
    logChannel,
    `cloudlink_${nodeA.cloudlink.nodeId}`,
    `cloudlink_${nodeB.cloudlink.nodeId}`,
    'multi_node_barrier',
  ]) {
    await watcher.query(`LISTEN "${channel}"`);
  }
});
afterAll(async () => {
  watcher?.release(true);
  await nodeB?.app.close();
  await nodeA?.app.close();
  await poolB?.close();
  await nats?.stop();
  await db?.close();
});

describe('two server processes on NATS', () => {
  it('use NATS as their bus', () => {
    expect(nodeA.ctx.bus?.engine).toBe('nats');
    expect(nodeB.ctx.bus?.state()).toBe('listening');
  });

  it('show a log line ingested on one process in a live tail on the other', async () => {
    const device = await newDevice();
    const tail = await tailOn(nodeB, device);
    expect((await postLog(nodeA, device, 'hello from A')).statusCode).toBe(201);
    await waitFor('the line on B', () => tail.messages().includes('hello from A'));
    tail.close();
  });

  it('route an action to the device held by the other process', async () => {
    const device = await newDevice();
    const fake = await online(nodeA, device, {
      answer: () => ({ status: 200, body: { status: 'Idle' } }),
    });
    const result = await nodeB.cloudlink.sendAction(device.id, 'device-state', {});
    expect(result).toMatchObject({ status: 200, body: { status: 'Idle' } });
    expect(fake.received.map((request) => request.action)).toEqual(['device-state']);
    await fake.close();
  });

  it('relay a terminal to the device held by the other process', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(nodeA, device, { shells });
    const client = connectTerminal(nodeB.url, {
      token: userKey,
      uuid: device.uuid,
      target: { kind: 'host' },
    });
    await client.waitForText('fake shell');
    client.send('over nats\n');
    await client.waitForText('echo:over nats');
    client.socket.close();
    await fake.close();
  });

  it('lose no stored line while NATS is down: the tail reads it once the bus is back', async () => {
    const device = await newDevice();
    const tail = await tailOn(nodeB, device);
    const bus = nodeB.ctx.bus;
    if (!bus) throw new Error('expected a NATS bus');
    const down = new Promise<void>((resolve) => {
      const stop = bus.onStateChange((state) => {
        if (state === 'down') resolve(stop());
      });
    });
    await nats.stop();
    await down;
    expect((await postLog(nodeA, device, 'during the outage')).statusCode).toBe(201);
    await waitFor('the line stored', async () => {
      const { rows } = await db.query('SELECT 1 FROM "device_log" WHERE "device" = $1', [
        device.id,
      ]);
      return rows.length === 2;
    });
    await nats.start();
    await waitFor('the line on B', () => tail.messages().includes('during the outage'));
    tail.close();
    await waitFor('both buses back', () => nodeA.ctx.bus?.isLive() === true && bus.isLive());
  }, 30_000);

  it('sent no NOTIFY on the log and cloudlink channels', async () => {
    // Notifications arrive in commit order: once the barrier is heard, any earlier one would be.
    await db.query("SELECT pg_notify('multi_node_barrier', '')");
    await waitFor('the barrier', () => notified.includes('multi_node_barrier'));
    expect(notified).toEqual(['multi_node_barrier']);
  });
});
