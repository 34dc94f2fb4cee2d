import {
  terminalCloseCodes,
  terminalWindowBytes,
} from '@flotilla/shared/terminal/terminal-constants';
import { randomBytes } from 'node:crypto';
import { terminalFrame } from '@flotilla/shared/cloudlink/messages';
import { type TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { type Database, openDatabase } from '../../infra/db/database.js';
import { composeServer } from '../../server.js';
import { connectFakeDevice, type FakeDevice } from '../../test-support/fake-device-client.js';
import {
  createFakeShells,
  type FakeShell,
  type FakeShells,
} from '../../test-support/fake-shells.js';
import * as fx from '../../test-support/fixtures.js';
import { connectTerminal, type TerminalClient } from '../../test-support/terminal-client.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import type { CloudlinkOptions } from '../cloudlink/cloudlink-options.js';
import { overrunMessage } from '../cloudlink/terminal-stream.js';
import { hostOsTooOld } from './terminal-access.js';
import { waitFor } from '../../test-support/wait-for.js';

type Node = { app: FastifyInstance; ctx: AppContext; nodeId: string; url: string };

const fast: Partial<CloudlinkOptions> = { nodeHeartbeatMs: 200, nodeStaleAfterMs: 2_000 };

let operatorUserId = 0;

// What the servers log at info: the operator reads terminal sessions there.
const logLines: string[] = [];
const loggedTerminal = (message: string) =>
  logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === message);

const startNode = async (pool: Database): Promise<Node> => {
  const base = createTestContext(pool);
  const ctx: AppContext = { ...base, config: { ...base.config, logLevel: 'info' } };
  const {
    app,
    cloudlink: { nodeId },
  } = composeServer(ctx, {
    cloudlink: fast,
    logStream: { write: (line) => void logLines.push(line) },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, ctx, nodeId, url };
};

const host: TerminalTarget = { kind: 'host' };
const service: TerminalTarget = { kind: 'service', service: 'main' };

let db: Database;
let fleet: fx.FleetFixture;
const keys: Record<'operator' | 'safeOperator' | 'observer' | 'outsider', string> = {
  operator: '',
  safeOperator: '',
  observer: '',
  outsider: '',
};

type Device = fx.DeviceFixture & { key: string };
const newDevice = async (): Promise<Device> => {
  const device = await fx.createDevice(db, fleet.id, `dev-${randomBytes(3).toString('hex')}`);
  return { ...device, key: await createApiKey(db, device.actorId, { name: 'device key' }) };
};

// A connected fake device whose session the server has recorded.
const online = async (node: Node, device: Device, shells: FakeShells): Promise<FakeDevice> => {
  const fake = await connectFakeDevice(node.url, device.key, { uuid: device.uuid, shells });
  await waitFor('the session', async () => {
    const { rows } = await db.query<{ node_id: string }>(
      'SELECT "node_id" FROM "cloudlink_session" WHERE "device" = $1',
      [device.id],
    );
    return rows[0]?.node_id === node.nodeId;
  });
  return fake;
};

const onlyShell = (shells: FakeShells): FakeShell => {
  const [shell] = [...shells.shells.values()];
  if (!shell || shells.shells.size !== 1) throw new Error('expected exactly one shell');
  return shell;
};

const refusalOf = async (client: TerminalClient) => {
  const closed = await client.closed;
  return { closed: closed.code, last: client.messages.at(-1) };
};

beforeAll(async () => {
  db = await createTestDatabase();
  const organization = await fx.createOrganization(db, 'Shells');
  fleet = await fx.createFleet(db, organization, 'Shelled');
  const other = await fx.createFleet(db, organization, 'Elsewhere');
  const member = async (name: string, role: string, fleetId = fleet.id) => {
    const user = await fx.createUser(db, `${name}-${randomBytes(2).toString('hex')}`);
    await fx.addFleetMember(db, user.userId, fleetId, role);
    if (name === 'operator') operatorUserId = user.userId;
    return createApiKey(db, user.actorId, { name: 'user key' });
  };
  keys.operator = await member('operator', 'operator');
  keys.safeOperator = await member('safe', 'safe-operator');
  keys.observer = await member('observer', 'observer');
  keys.outsider = await member('outsider', 'operator', other.id);
});
afterAll(async () => {
  await db?.close();
});

describe('web terminal on one server', () => {
  let node: Node;
  beforeAll(async () => {
    node = await startNode(db);
  });
  afterAll(async () => {
    await node?.app.close();
  });

  it.each([
    ['an unknown key', 'not-a-key', host],
    ['a user of another fleet', 'outsider', service],
    ['an observer', 'observer', service],
    ['a safe operator on the host OS', 'safeOperator', host],
  ] as const)('refuses %s before asking the device', async (_, who, target) => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const token = who in keys ? keys[who as keyof typeof keys] : who;
    const client = connectTerminal(node.url, { token, uuid: device.uuid, target });
    expect(await refusalOf(client)).toEqual({
      closed: terminalCloseCodes.refused,
      last: { type: 'refused', reason: 'unauthorized', message: 'You may not open this terminal' },
    });
    expect(client.messages).toHaveLength(1);
    expect(shells.shells.size).toBe(0);
    await fake.close();
  });

  it('answers the host OS access check: 200 for an operator, 401 otherwise', async () => {
    const device = await newDevice();
    const check = (key: string, uuid = device.uuid) =>
      fetch(new URL(`/access/v1/hostos/${uuid}`, node.url), {
        headers: { authorization: `Bearer ${key}` },
      }).then((response) => response.status);
    expect(await check(keys.operator)).toBe(200);
    expect(await check(keys.safeOperator)).toBe(401);
    expect(await check(keys.observer)).toBe(401);
    expect(await check(keys.outsider)).toBe(401);
    expect(await check(keys.operator, 'f'.repeat(32))).toBe(401);
  });

  it('keeps the host OS of a device below balenaOS 2.0.0 closed, but for platform admins', async () => {
    const device = await newDevice();
    await db.query('UPDATE "device" SET "os_version" = $2 WHERE "id" = $1', [
      device.id,
      'balenaOS 1.30.1',
    ]);
    const admin = await fx.createUser(db, `admin-${randomBytes(2).toString('hex')}`);
    await db.query(
      `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`,
      [admin.userId],
    );
    const adminKey = await createApiKey(db, admin.actorId, { name: 'admin key' });
    const check = (key: string) =>
      fetch(new URL(`/access/v1/hostos/${device.uuid}`, node.url), {
        headers: { authorization: `Bearer ${key}` },
      }).then(async (response) => ({ status: response.status, body: await response.text() }));
    expect(await check(keys.operator)).toEqual({ status: 401, body: hostOsTooOld });
    expect((await check(adminKey)).status).toBe(200);

    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const refused = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    expect(await refusalOf(refused)).toEqual({
      closed: terminalCloseCodes.refused,
      last: { type: 'refused', reason: 'unauthorized', message: hostOsTooOld },
    });
    // A service shell does not depend on the OS version.
    const serviceShell = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: service,
    });
    await serviceShell.waitForMessage('ready');
    serviceShell.socket.close();
    await shells.whenClosed(onlyShell(shells).session);
    await fake.close();
  });

  it('lets a safe operator open a service shell, not the host OS', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const client = connectTerminal(node.url, {
      token: keys.safeOperator,
      uuid: device.uuid,
      target: service,
    });
    await client.waitForMessage('ready');
    expect(onlyShell(shells).target).toEqual(service);
    client.socket.close();
    await shells.whenClosed(onlyShell(shells).session);
    await fake.close();
  });

  it('refuses a device that is not connected, and a service that is not running', async () => {
    const device = await newDevice();
    const offline = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    expect(await refusalOf(offline)).toEqual({
      closed: terminalCloseCodes.refused,
      last: {
        type: 'refused',
        reason: 'unavailable',
        message: 'The device is not connected to the cloud',
      },
    });
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const stopped = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: { kind: 'service', service: 'stopped' },
    });
    expect(await refusalOf(stopped)).toEqual({
      closed: terminalCloseCodes.refused,
      last: { type: 'refused', reason: 'unavailable', message: 'Service stopped is not running' },
    });
    await fake.close();
  });

  it('runs a session: states, input, output, resize, exit', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const client = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    await client.waitForText('fake shell');
    expect(client.messages.map((message) => message.type)).toEqual([
      'authenticated',
      'connecting',
      'spawning',
      'ready',
    ]);
    client.send('uname -a\n');
    await client.waitForText('echo:uname -a');
    client.resize(132, 40);
    await waitFor('the resize', () => onlyShell(shells).sizes.length === 2);
    expect(onlyShell(shells).sizes).toEqual([
      { cols: 80, rows: 24 },
      { cols: 132, rows: 40 },
    ]);
    client.send('exit\n');
    expect(await client.closed).toMatchObject({ code: terminalCloseCodes.exited });
    expect(client.messages.at(-1)).toEqual({ type: 'exit', code: 0 });
    const session = { device: device.uuid, target: 'Host OS', userId: operatorUserId };
    expect(loggedTerminal('terminal: session opened')).toContainEqual(
      expect.objectContaining({ level: 30, ...session }),
    );
    await waitFor('the session end in the log', () =>
      loggedTerminal('terminal: session ended').some((line) => line.device === device.uuid),
    );
    expect(logLines.join('\n')).not.toContain(keys.operator);
    // The audit log records the session's opening and its end, with the device and its user.
    await waitFor('the session in the audit log', async () => {
      const { rows } = await db.query<{ action: string; actor_user: number }>(
        `SELECT "action", "actor_user" FROM "audit_log_entry" WHERE "device" = $1 ORDER BY "id"`,
        [device.id],
      );
      return (
        rows.map((row) => `${row.action}:${row.actor_user}`).join(',') ===
        `terminal_opened:${operatorUserId},terminal_closed:${operatorUserId}`
      );
    });
    await fake.close();
  });

  it('closes the shell when the browser goes away, and the terminal when the device does', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const first = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    await first.waitForMessage('ready');
    first.socket.close();
    await shells.whenClosed(onlyShell(shells).session);

    const second = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    await second.waitForMessage('ready');
    await fake.close();
    expect(await second.closed).toMatchObject({ code: terminalCloseCodes.disconnected });
    expect(second.messages.at(-1)).toEqual({
      type: 'disconnect',
      message: 'The device disconnected',
    });
  });

  it('cuts a device that sends beyond the flow-control window', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(node, device, shells);
    const client = connectTerminal(node.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
      autoAck: false,
    });
    await client.waitForMessage('ready');
    const { session } = onlyShell(shells);
    const chunk = new Uint8Array(64 * 1024);
    for (let sent = 0; sent <= 2 * terminalWindowBytes; sent += chunk.byteLength) {
      fake.socket.send(terminalFrame(session, chunk));
    }
    expect(await client.closed).toMatchObject({ code: terminalCloseCodes.disconnected });
    expect(client.messages.at(-1)).toEqual({ type: 'disconnect', message: overrunMessage });
    await shells.whenClosed(session);
    expect(client.received).toBeLessThanOrEqual(2 * terminalWindowBytes);
    await fake.close();
  });
});

describe('web terminal across two server processes', () => {
  let poolB: Database;
  let browserNode: Node;
  let deviceNode: Node;
  beforeAll(async () => {
    poolB = openDatabase(db.url, { max: 5 });
    browserNode = await startNode(db);
    deviceNode = await startNode(poolB);
  });
  afterAll(async () => {
    await deviceNode?.app.close();
    await browserNode?.app.close();
    await poolB?.close();
  });

  it('relays a session to the process holding the device, in order and paced by acks', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(deviceNode, device, shells);
    const client = connectTerminal(browserNode.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
      autoAck: false,
    });
    await client.waitForText('fake shell');
    client.ackAll();
    for (const word of ['one', 'two', 'three']) client.send(`${word}\n`);
    await client.waitForText('echo:three');
    expect(client.text()).toContain('echo:one\r\necho:two\r\necho:three');
    client.resize(100, 30);
    await waitFor('the resize', () => onlyShell(shells).sizes.length === 2);

    // A megabyte of output: the device never runs more than a window ahead of the browser.
    const shell = onlyShell(shells);
    client.ackAll();
    const before = client.received;
    client.send('flood 1048576\n');
    await waitFor('the first window', () => client.received - before >= terminalWindowBytes);
    expect(shell.unacknowledged).toBeLessThanOrEqual(terminalWindowBytes);
    const pacing = setInterval(() => client.ackAll(), 5);
    await client.waitForText('flood done');
    clearInterval(pacing);
    expect(shell.peakUnacknowledged).toBeLessThanOrEqual(terminalWindowBytes);

    client.socket.close();
    await shells.whenClosed(shell.session);
    await fake.close();
  });

  it('ends the browser’s terminal when the device leaves the other process', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(deviceNode, device, shells);
    const client = connectTerminal(browserNode.url, {
      token: keys.operator,
      uuid: device.uuid,
      target: host,
    });
    await client.waitForMessage('ready');
    await fake.close();
    expect(await client.closed).toMatchObject({ code: terminalCloseCodes.disconnected });
  });

  it('closes a shell served for a process that stopped heartbeating', async () => {
    const device = await newDevice();
    const shells = createFakeShells();
    const fake = await online(deviceNode, device, shells);
    // A browser's node that opened a session, then died without closing it.
    const deadNode = randomBytes(8).toString('hex');
    const open = {
      kind: 'terminal-open',
      key: randomBytes(8).toString('hex'),
      replyTo: deadNode,
      deviceId: device.id,
      target: host,
      cols: 80,
      rows: 24,
    };
    await db.query('SELECT pg_notify($1, $2)', [
      `cloudlink_${deviceNode.nodeId}`,
      JSON.stringify(open),
    ]);
    await waitFor('the shell', () => shells.shells.size === 1);
    await shells.whenClosed(onlyShell(shells).session);
    await fake.close();
  });
});
