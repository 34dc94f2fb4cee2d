import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../../app-context.js';
import { type Database } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import { type FakeDeviceWeb, startFakeDeviceWeb } from '../../test-support/fake-device-web.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerDeviceUrl } from './register-device-url.js';

type Node = { app: FastifyInstance; ctx: AppContext; nodeId: string; url: string };

const maxBodyBytes = 64 * 1024;
// Far more than every buffer between the device and a reader that stopped reading.
const hugeBytes = 64 * 1024 * 1024;

const startNode = async (pool: Database): Promise<Node> => {
  const ctx = createTestContext(pool, { config: { deviceUrlsBase: 'devices.test:8080' } });
  const { app, cloudlink } = composeServer(ctx, {
    cloudlink: { nodeHeartbeatMs: 200, nodeStaleAfterMs: 2_000 },
  });
  registerDeviceUrl(app, ctx, cloudlink, { maxBodyBytes, maxStreamsPerDevice: 2 });
  const { nodeId } = cloudlink;
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, ctx, nodeId, url };
};

// Registering again only changes the limits; the cloudlink of the first registration stays.
const unused = (): Promise<never> => Promise.reject(new Error('not used'));

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

// A request to `url` as if the browser had asked for `host` (no DNS needed).
const fetchAs = (
  url: string,
  host: string,
  options: { method?: string; path?: string; body?: Buffer; chunked?: boolean } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(new URL(options.path ?? '/', url), {
      method: options.method ?? 'GET',
      headers: {
        host,
        ...(options.body && !options.chunked ? { 'content-length': options.body.byteLength } : {}),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.end(options.body);
  });

// A ping from the device answered by the server: everything the server sent before has arrived.
const roundTrip = (fake: FakeDevice): Promise<void> =>
  new Promise((resolve) => {
    fake.socket.once('pong', () => resolve());
    fake.socket.ping();
  });

let db: Database;
let fleet: fx.FleetFixture;
let node: Node;
let web: FakeDeviceWeb;
// Requests the fake device's web server got, by path.
const seen = new Map<string, { method: string; headers: IncomingHttpHeaders; body: string }>();
// Answers of /slow, held open until the test ends them.
const slowAnswers: ServerResponse[] = [];

type Device = fx.DeviceFixture & { key: string; host: string };
const newDevice = async (webAccessible: boolean): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `web-${randomBytes(3).toString('hex')}`);
  await db.query('UPDATE "device" SET "is_web_accessible" = $2 WHERE "id" = $1', [
    device.id,
    webAccessible,
  ]);
  return {
    ...device,
    key: await createApiKey(db, device.actorId, { name: 'device key' }),
    host: `${device.uuid}.devices.test:8080`,
  };
};

const online = async (at: Node, device: Device): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(at.url, device.key, { uuid: device.uuid, web });
  await waitFor('the session', async () => {
    const { rows } = await db.query<{ node_id: string }>(
      'SELECT "node_id" FROM "cloudlink_session" WHERE "device" = $1',
      [device.id],
    );
    return rows[0]?.node_id === at.nodeId;
  });
  return fake;
};

beforeAll(async () => {
  db = await createTestDatabase();
  const organization = await fx.createOrganization(db, 'Web');
  fleet = await fx.createFleet(db, organization, 'Webbed');
  web = await startFakeDeviceWeb((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      seen.set(path, {
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (path === '/big') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.alloc(3 * terminalWindowBytes, 0x62));
        return;
      }
      if (path === '/huge') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.alloc(hugeBytes, 0x63));
        return;
      }
      if (path === '/hang-up') {
        request.socket.destroy();
        return;
      }
      // Never answers: the proxy's response timeout must.
      if (path === '/silent') return;
      if (path === '/slow') {
        slowAnswers.push(response);
        response.writeHead(200);
        response.write('slow ');
        return;
      }
      response.writeHead(201, {
        'content-type': 'text/plain',
        'x-device': 'yes',
        'set-cookie': ['session=abc; Domain=devices.test; Path=/; HttpOnly'],
      });
      response.end(`device says ${request.method ?? ''} ${path} ${Buffer.concat(chunks).length}`);
    });
  });
  const sockets = new WebSocketServer({ noServer: true });
  web.server.on('upgrade', (request, socket, head) => {
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.on('message', (data) => client.send(`echo:${data.toString()}`));
    });
  });
  node = await startNode(db);
});
afterAll(async () => {
  await node?.app.close();
  await web?.close();
  await db?.close();
});

describe('public device URL on one server', () => {
  it('passes a request with its body to the device and its answer back', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const answer = await fetchAs(node.url, device.host, {
      method: 'POST',
      path: '/form?x=1',
      body: Buffer.from('hello device'),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.toString()).toBe('device says POST /form?x=1 12');
    expect(answer.headers['x-device']).toBe('yes');
    // The device's cookie stays on its own host (no Domain attribute reaches the browser).
    expect(answer.headers['set-cookie']).toEqual(['session=abc; Path=/; HttpOnly']);
    const got = seen.get('/form?x=1');
    expect(got?.body).toBe('hello device');
    expect(got?.headers.host).toBe(device.host);
    expect(got?.headers['x-forwarded-host']).toBe(device.host);
    expect(got?.headers['x-forwarded-for']).toBe('127.0.0.1');
    await fake.close();
  });

  it('streams a large answer through the flow-control window', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const answer = await fetchAs(node.url, device.host, { path: '/big' });
    expect(answer.status).toBe(200);
    expect(answer.body.byteLength).toBe(3 * terminalWindowBytes);
    expect(answer.body.every((byte) => byte === 0x62)).toBe(true);
    expect(web.peakUnacknowledged).toBeLessThan(terminalWindowBytes + 65_536);
    await fake.close();
  });

  it('stops the device while the browser does not read', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    let received = 0;
    let resume: () => void = () => undefined;
    const done = new Promise<void>((resolve, reject) => {
      const request = httpRequest(new URL('/huge', node.url), { headers: { host: device.host } });
      request.on('error', reject);
      request.on('response', (response) => {
        response.pause();
        resume = () => response.resume();
        response.on('data', (chunk: Buffer) => (received += chunk.byteLength));
        response.on('end', resolve);
      });
      request.end();
    });
    // Stopped for good: still waiting, having sent nothing more, after a ping's round trip
    // (any acknowledgement the server sent before its pong has arrived by then).
    await waitFor(
      'the device to stay stopped at the window',
      async () => {
        if (!web.stalled()) return false;
        const before = web.sentBytes;
        await roundTrip(fake);
        return web.stalled() && web.sentBytes === before;
      },
      20_000,
    );
    // Without flow control the server would have taken it all.
    expect(web.sentBytes).toBeLessThan(hugeBytes / 2);
    expect(received).toBe(0);
    resume();
    await done;
    expect(received).toBe(hugeBytes);
    await fake.close();
  });

  it('answers 404 while the public URL is off, for unknown devices and names', async () => {
    const device = await newDevice(false);
    const fake = await online(node, device);
    const opened = web.opened;
    for (const host of [
      device.host,
      `${'0'.repeat(32)}.devices.test`,
      'not-a-uuid.devices.test:8080',
    ]) {
      const answer = await fetchAs(node.url, host);
      expect(answer.status, host).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body.toString()).toContain('Device URL not found');
    }
    expect(web.opened).toBe(opened);
    await fake.close();
  });

  it('answers 503 while the device is offline', async () => {
    const device = await newDevice(true);
    const answer = await fetchAs(node.url, device.host);
    expect(answer.status).toBe(503);
    expect(answer.body.toString()).toContain('Device offline');
  });

  it('answers 502 when the device web server hangs up', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const answer = await fetchAs(node.url, device.host, { path: '/hang-up' });
    expect(answer.status).toBe(502);
    expect(answer.body.toString()).toContain('Device web server unreachable');
    await fake.close();
  });

  it('refuses bodies over the limit, declared or streamed', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const big = Buffer.alloc(maxBodyBytes + 1, 0x61);
    const declared = await fetchAs(node.url, device.host, { method: 'PUT', path: '/d', body: big });
    expect(declared.status).toBe(413);
    expect(seen.has('/d')).toBe(false);
    const streamed = await fetchAs(node.url, device.host, {
      method: 'PUT',
      path: '/s',
      body: big,
      chunked: true,
    });
    expect(streamed.status).toBe(413);
    expect(seen.has('/s')).toBe(false);
    await fake.close();
  });

  it('limits the requests in progress per device', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const slow = [
      fetchAs(node.url, device.host, { path: '/slow' }),
      fetchAs(node.url, device.host, { path: '/slow' }),
    ];
    await waitFor('both slow requests at the device', () => slowAnswers.length === 2);
    const refused = await fetchAs(node.url, device.host);
    expect(refused.status).toBe(503);
    expect(refused.body.toString()).toContain('Device busy');
    for (const answer of slowAnswers.splice(0)) answer.end('done');
    expect((await Promise.all(slow)).map((answer) => answer.body.toString())).toEqual([
      'slow done',
      'slow done',
    ]);
    await waitFor(
      'a slot is free again',
      async () => (await fetchAs(node.url, device.host)).status === 201,
    );
    await fake.close();
  });

  it('relays a websocket to the device', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const socket = new WebSocket(node.url.replace('http', 'ws'), {
      headers: { host: device.host },
    });
    const reply = new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(data.toString()));
      socket.once('error', reject);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send('ping');
    expect(await reply).toBe('echo:ping');
    socket.close();
    await fake.close();
  });

  it('answers 504 when the device does not start answering in time', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    registerDeviceUrl(node.app, node.ctx, { openTerminal: unused }, { responseTimeoutMs: 300 });
    try {
      const answer = await fetchAs(node.url, device.host, { path: '/silent' });
      expect(answer.status).toBe(504);
      expect(answer.body.toString()).toContain('Device did not answer in time');
    } finally {
      registerDeviceUrl(
        node.app,
        node.ctx,
        { openTerminal: unused },
        { responseTimeoutMs: 30_000 },
      );
    }
    await fake.close();
  });

  it('refuses a websocket with the 404 page while the URL is off', async () => {
    const device = await newDevice(false);
    const fake = await online(node, device);
    const socket = new WebSocket(node.url.replace('http', 'ws'), {
      headers: { host: device.host },
    });
    const status = await new Promise<number>((resolve, reject) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('the websocket opened')));
    });
    expect(status).toBe(404);
    await fake.close();
  });

  it('leaves every other host to the app', async () => {
    const answer = await fetchAs(node.url, 'localhost:8080', { path: '/ping' });
    expect(answer.status).toBe(200);
    const sub = await fetchAs(node.url, 'console.devices.test.example', { path: '/ping' });
    expect(sub.status).toBe(200);
  });
});

describe('public device URL across server processes', () => {
  let other: Node;
  beforeAll(async () => {
    other = await startNode(db);
  });
  afterAll(async () => {
    await other?.app.close();
  });

  it('tunnels through the process that holds the device’s cloudlink', async () => {
    const device = await newDevice(true);
    const fake = await online(node, device);
    const answer = await fetchAs(other.url, device.host, {
      method: 'POST',
      path: '/across',
      body: Buffer.from('over the bus'),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.toString()).toBe('device says POST /across 12');
    const big = await fetchAs(other.url, device.host, { path: '/big' });
    expect(big.body.byteLength).toBe(3 * terminalWindowBytes);
    await fake.close();
  });
});
