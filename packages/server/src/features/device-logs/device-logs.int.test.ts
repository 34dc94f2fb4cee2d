import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { gzipSync, createGzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import type { AppContext } from '../../app-context.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { LogLineOut } from './log-line.js';
import { registerDeviceLogs } from './register-device-logs.js';
import { waitFor } from '../../test-support/wait-for.js';

const retention = 20;
const keepAliveMs = 300;

type OpenStream = { text: () => string; lines: () => LogLineOut[]; close: () => void };

// A kept-open GET read as it arrives, as the SDK's logs.subscribe does.
const openStream = (url: string, key: string): Promise<OpenStream> =>
  new Promise((resolve, reject) => {
    let text = '';
    const request = http.get(url, { headers: { authorization: `Bearer ${key}` } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`status ${response.statusCode}`));
        return;
      }
      expect(response.headers['content-type']).toMatch(/application\/x-ndjson/);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', () => undefined);
      resolve({
        text: () => text,
        lines: () =>
          text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as LogLineOut),
        close: () => request.destroy(),
      });
    });
    request.on('error', () => undefined);
  });

describe('device logs', () => {
  let db: Database;
  let app: FastifyInstance;
  let appContext: AppContext;
  let other: FastifyInstance;
  let baseUrl: string;
  let otherUrl: string;
  let fleet: fx.FleetFixture;
  let device: fx.DeviceFixture;
  let deviceKey: string;
  let otherDevice: fx.DeviceFixture;
  let developerKey: string;
  let observerKey: string;
  let operatorKey: string;
  let outsiderKey: string;

  const options = { retention, keepAliveMs, flushMs: 20 };

  beforeAll(async () => {
    db = await createTestDatabase();
    appContext = createTestContext(db);
    app = await createTestApp(appContext, (instance, ctx) =>
      registerDeviceLogs(instance, ctx, options),
    );
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    // A second server process on the same database.
    other = await createTestApp(createTestContext(db), (instance, ctx) =>
      registerDeviceLogs(instance, ctx, options),
    );
    otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
    const org = await fx.createOrganization(db, 'Loggers');
    fleet = await fx.createFleet(db, org, 'Chatty');
    device = await fx.createDevice(db, fleet.id, 'talker');
    otherDevice = await fx.createDevice(db, fleet.id, 'neighbour');
    deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    const developer = await fx.createUser(db, 'developer');
    await fx.addFleetMember(db, developer.userId, fleet.id, 'developer');
    developerKey = await createApiKey(db, developer.actorId, { name: 'dev' });
    const observer = await fx.createUser(db, 'observer');
    await fx.addFleetMember(db, observer.userId, fleet.id, 'observer');
    observerKey = await createApiKey(db, observer.actorId, { name: 'obs' });
    const operator = await fx.createUser(db, 'operator');
    await fx.addFleetMember(db, operator.userId, fleet.id, 'operator');
    operatorKey = await createApiKey(db, operator.actorId, { name: 'op' });
    const outsider = await fx.createUser(db, 'outsider');
    outsiderKey = await createApiKey(db, outsider.actorId, { name: 'out' });
  });
  afterAll(async () => {
    await other.close();
    await app.close();
    await db.close();
  });

  const history = async (query = '', key = developerKey, uuid = device.uuid) => {
    const response = await app.inject({
      method: 'GET',
      url: `/device/v2/${uuid}/logs${query}`,
      headers: { authorization: `Bearer ${key}` },
    });
    return {
      status: response.statusCode,
      lines: response.statusCode === 200 ? response.json<LogLineOut[]>() : [],
    };
  };

  const clearLogs = async () => {
    await db.query('DELETE FROM "device_log"');
  };

  const postStream = (
    body: string | Buffer,
    headers: Record<string, string> = {},
    uuid = device.uuid,
  ) =>
    app.inject({
      method: 'POST',
      url: `/device/v2/${uuid}/log-stream`,
      headers: {
        authorization: `Bearer ${deviceKey}`,
        'content-type': 'application/x-ndjson',
        ...headers,
      },
      payload: body,
    });

  const ndjson = (...lines: unknown[]): string =>
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

  it('ingests a plain NDJSON log stream, skipping bad lines, and answers history oldest first', async () => {
    await clearLogs();
    const response = await postStream(
      ndjson(
        { message: 'booting', timestamp: 1000, isSystem: true },
        'not json at all',
        { timestamp: 1 },
        { message: 'hello', timestamp: 2000, serviceId: 7 },
        42,
        '',
        { message: 'oops', timestamp: 3000, isStdErr: true, serviceId: 7, extra: 'ignored' },
        `{"message":"${'x'.repeat(70 * 1024)}"}`,
        { message: 'after the big one', timestamp: 4000 },
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    const { status, lines } = await history();
    expect(status).toBe(200);
    expect(
      lines.map(({ createdAt, ...rest }) => (expect(typeof createdAt).toBe('number'), rest)),
    ).toEqual([
      { message: 'booting', timestamp: 1000, isSystem: true, isStdErr: false },
      { message: 'hello', timestamp: 2000, isSystem: false, isStdErr: false, serviceId: 7 },
      { message: 'oops', timestamp: 3000, isSystem: false, isStdErr: true, serviceId: 7 },
      { message: 'after the big one', timestamp: 4000, isSystem: false, isStdErr: false },
    ]);
    await appContext.contacts.flush();
    const contact = await db.query<{ seen: boolean }>(
      'SELECT "last_contact_at" IS NOT NULL AS "seen" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(contact.rows).toEqual([{ seen: true }]);
  });

  it('ingests gzip, and parses a long-lived upload as it arrives', async () => {
    await clearLogs();
    const gz = await postStream(gzipSync(ndjson({ message: 'zipped', timestamp: 5 })), {
      'content-encoding': 'gzip',
    });
    expect(gz.statusCode, gz.body).toBe(201);
    expect((await history()).lines.map((line) => line.message)).toEqual(['zipped']);
    const corrupt = await postStream(Buffer.from('definitely not gzip'), {
      'content-encoding': 'gzip',
    });
    expect(corrupt.statusCode).toBe(400);

    // One open request: lines are stored while it is still being written.
    const gzip = createGzip();
    const request = http.request(`${baseUrl}/device/v2/${device.uuid}/log-stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${deviceKey}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
    });
    const answered = new Promise<number>((resolve) =>
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }),
    );
    gzip.pipe(request);
    gzip.write(`${JSON.stringify({ message: 'live one', timestamp: 6 })}\n{"message":"split `);
    gzip.flush();
    await waitFor('the first streamed line', async () => (await history()).lines.length === 2);
    gzip.write(`line","timestamp":7}\n`);
    gzip.end();
    expect(await answered).toBe(201);
    expect((await history()).lines.map((line) => line.message)).toEqual([
      'zipped',
      'live one',
      'split line',
    ]);
  });

  it('accepts JSON batches from older agents and serves count, start and all', async () => {
    await clearLogs();
    const batch = await app.inject({
      method: 'POST',
      url: `/device/v2/${device.uuid}/logs`,
      headers: { authorization: `Bearer ${deviceKey}` },
      payload: [1, 2, 3, 4, 5]
        .map((n) => ({ message: `line ${n}`, timestamp: n }))
        .concat([{ message: 7 } as never]),
    });
    expect(batch.statusCode, batch.body).toBe(201);
    expect((await history('?count=2')).lines.map((line) => line.message)).toEqual([
      'line 4',
      'line 5',
    ]);
    expect((await history('?count=all')).lines).toHaveLength(5);
    const future = Date.now() + 60_000;
    expect((await history(`?start=${future}&count=10`)).lines).toEqual([]);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await history(`?start=${past}&count=10`)).lines).toHaveLength(5);
    expect((await history('?count=lots')).status).toBe(400);
  });

  it('keeps only the newest lines of each device, trimming every few lines', async () => {
    await clearLogs();
    const rowCount = async (): Promise<number> => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM "device_log" WHERE "device" = $1',
        [device.id],
      );
      return rows[0]?.n ?? 0;
    };
    const lines = Array.from({ length: 56 }, (_, n) => ({ message: `n${n}`, timestamp: n }));
    const post = async (from: number, to: number): Promise<string[]> => {
      const response = await postStream(ndjson(...lines.slice(from, to)), {
        'content-type': 'application/x-ndjson; charset=utf-8',
      });
      expect(response.statusCode, response.body).toBe(201);
      return (await history('?count=all')).lines.map((line) => line.message);
    };
    const newest = (to: number): string[] =>
      lines.slice(to - retention, to).map((line) => line.message);
    expect(await post(0, 50)).toEqual(newest(50));
    expect(await rowCount()).toBe(retention);
    // Up to a quarter of the retention more before the next trim; history shows the newest.
    expect(await post(50, 55)).toEqual(newest(55));
    expect(await rowCount()).toBe(retention + 5);
    expect(await post(55, 56)).toEqual(newest(56));
    expect(await rowCount()).toBe(retention);
  });

  it('streams history first, then live lines and keep-alives, across processes', async () => {
    await clearLogs();
    await postStream(
      ndjson(
        { message: 'old 1', timestamp: 1 },
        { message: 'old 2', timestamp: 2 },
        { message: 'old 3', timestamp: 3 },
      ),
    );
    const stream = await openStream(
      `${baseUrl}/device/v2/${device.uuid}/logs?stream=1&count=2`,
      observerKey,
    );
    await waitFor('the history', () => stream.lines().length === 2);
    expect(stream.lines().map((line) => line.message)).toEqual(['old 2', 'old 3']);
    // A stream served by the other process sees lines ingested here, and vice versa.
    const remote = await openStream(
      `${otherUrl}/device/v2/${device.uuid}/logs?stream=1`,
      observerKey,
    );
    await postStream(ndjson({ message: 'live', timestamp: 4 }));
    await waitFor('the live line', () => stream.lines().length === 3);
    await waitFor('the live line on the other process', () => remote.lines().length === 1);
    expect(remote.lines().map((line) => line.message)).toEqual(['live']);
    await other.inject({
      method: 'POST',
      url: `/device/v2/${device.uuid}/logs`,
      headers: { authorization: `Bearer ${deviceKey}` },
      payload: [{ message: 'from the other process', timestamp: 5 }],
    });
    await waitFor('the line ingested elsewhere', () => stream.lines().length === 4);
    expect(stream.lines().map((line) => line.message)).toEqual([
      'old 2',
      'old 3',
      'live',
      'from the other process',
    ]);
    await waitFor('a keep-alive', () => stream.text().endsWith('\n\n'));
    stream.close();
    // `remote` stays open: closing its server must end it rather than wait for the client.
  });

  it('lets only the device write, readers read and developers delete its logs', async () => {
    await clearLogs();
    expect((await postStream(ndjson({ message: 'x' }), {}, otherDevice.uuid)).statusCode).toBe(401);
    const userPost = await app.inject({
      method: 'POST',
      url: `/device/v2/${device.uuid}/logs`,
      headers: { authorization: `Bearer ${developerKey}` },
      payload: [{ message: 'x' }],
    });
    expect(userPost.statusCode).toBe(401);
    await postStream(ndjson({ message: 'secret' }));
    expect((await history('', outsiderKey)).status).toBe(401);
    expect((await history('', observerKey)).lines).toHaveLength(1);
    expect((await history('', deviceKey)).lines).toHaveLength(1);
    expect((await history('', deviceKey, otherDevice.uuid)).status).toBe(401);
    expect((await history('', developerKey, randomBytes(16).toString('hex'))).status).toBe(401);
    const remove = (key: string) =>
      app.inject({
        method: 'DELETE',
        url: `/device/v2/${device.uuid}/logs`,
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await remove(observerKey)).statusCode).toBe(401);
    // An operator acts on devices (reboot, delete...) but may not delete their logs.
    expect((await remove(operatorKey)).statusCode).toBe(401);
    expect((await history('', observerKey)).lines).toHaveLength(1);
    expect((await remove(developerKey)).statusCode).toBe(200);
    expect((await history('', observerKey)).lines).toEqual([]);
  });
});
