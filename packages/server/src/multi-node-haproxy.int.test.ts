import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DeviceLinks,
  type ScaleSimulator,
  startScaleSimulator,
} from '../bench/scale-simulator-client.js';
import { createApiKey } from './features/api-keys/store-api-key.js';
import { connectFakeDevice } from './test-support/fake-device-client.js';
import { type Database, openDatabase } from './infra/db/database.js';
import * as fx from './test-support/fixtures.js';
import {
  type FlotillaNode,
  readEnvFile,
  repoRoot,
  startFlotillaNode,
} from './test-support/flotilla-nodes.js';
import { freePort } from './test-support/free-port.js';
import { type FlotillaHaproxy, startFlotillaHaproxy } from './test-support/haproxy-http.js';
import {
  type DeviceWriter,
  type LiveTail,
  type OfflineWatch,
  openLiveTail,
  reportAddress,
  startDeviceWriter,
  watchOffline,
} from './test-support/multi-node-world.js';
import { type NatsServer, startNatsServer } from './test-support/nats-server.js';
import { connectTerminal } from './test-support/terminal-client.js';
import { createTestDatabaseUrl } from './test-support/test-database.js';
import { waitFor, waitForValue } from './test-support/wait-for.js';

// The reference multi-node deployment of docs/SCALING.md ("Several machines"), run: Debian's
// HAProxy with deploy/haproxy-flotilla.cfg in front of three whole Flotilla processes started
// with deploy/flotilla-node.env, one nats-server, the run's PostgreSQL. 2,000 devices of the
// agent's simulator (a process of its own) register, poll, report and hold their cloudlinks
// through HAProxy; a console user tails a device's logs and opens terminals. Then one process
// is killed with SIGKILL: its devices must reconnect to the others within the agent's reconnect
// backoff, the tail reconnect and deliver, a new terminal work through another process, no
// acknowledged write be lost and no device be shown offline longer than its reconnection took.
//
// Slow and multi-process: it runs in CI's second half only, where DATABASE_URL is set (.ci/run).

const devices = 2_000;
// The agent's cloudlink reconnect backoff (packages/agent/src/cloudlink.ts: 1 s doubling, equal
// jitter): a device's first attempt comes within 1 s of the loss, its second within 3 s.
const backoffOfTwoAttemptsMs = 1_000 + 2_000;

describe.runIf(process.env.DATABASE_URL)('three Flotilla processes behind HAProxy', () => {
  let dropDatabase: (() => Promise<void>) | undefined;
  let db: Database | undefined;
  let nats: NatsServer | undefined;
  let haproxy: FlotillaHaproxy | undefined;
  let simulator: ScaleSimulator | undefined;
  let writer: DeviceWriter | undefined;
  let offline: OfflineWatch | undefined;
  const nodes: FlotillaNode[] = [];
  const tails: LiveTail[] = [];
  const dirs: string[] = [];
  let fleet: fx.FleetFixture;
  let userKey: string;
  let writerDevice: { id: number; uuid: string; key: string };
  let probeDevice: { id: number; uuid: string; key: string };

  const sql = (): Database => {
    if (!db) throw new Error('not set up');
    return db;
  };
  const balancer = (): string => {
    if (!haproxy) throw new Error('not set up');
    return haproxy.url;
  };

  beforeAll(async () => {
    const database = await createTestDatabaseUrl();
    dropDatabase = database.drop;
    db = openDatabase(database.url, { max: 4 });
    nats = await startNatsServer();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-multi-node-'));
    const stateDir = await mkdtemp(path.join(tmpdir(), 'flotilla-multi-node-devices-'));
    dirs.push(dataDir, stateDir);
    const ports = [await freePort(), await freePort(), await freePort()];
    haproxy = await startFlotillaHaproxy(ports);

    // The documented settings, with this machine's addresses, secret and directories only.
    const shipped = await readEnvFile(path.join(repoRoot, 'deploy/flotilla-node.env'));
    const local: Record<string, string> = {
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      FLOTILLA_NATS_URL: nats.url,
      FLOTILLA_JWT_SECRET: randomBytes(48).toString('base64'),
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_PUBLIC_URL: haproxy.url,
    };
    expect(Object.keys(local).filter((key) => !(key in shipped))).toEqual([]);
    const env = { ...shipped, ...local };
    // The first start prepares the shared data directory; the other two join it.
    nodes.push(await startFlotillaNode('flotilla1', ports[0] ?? 0, env));
    nodes.push(
      ...(await Promise.all(
        ['flotilla2', 'flotilla3'].map((name, index) =>
          startFlotillaNode(name, ports[index + 1] ?? 0, env),
        ),
      )),
    );
    const proxy = haproxy;
    await waitFor('HAProxy to see the three processes up', async () => {
      const stats = [...(await proxy.stats()).values()];
      return (
        stats.filter((row) => /^flotilla\d$/.test(row.svname ?? '') && row.status === 'UP')
          .length === 3
      );
    });

    const organization = await fx.createOrganization(db, 'Spread');
    fleet = await fx.createFleet(db, organization, 'Wide');
    const user = await fx.createUser(db, 'console');
    await fx.addFleetMember(db, user.userId, fleet.id, 'operator');
    userKey = await createApiKey(db, user.actorId, { name: 'console user' });
    const written = await fx.createDevice(db, fleet.id, 'writer');
    writerDevice = {
      ...written,
      key: await createApiKey(db, written.actorId, { name: 'writer device' }),
    };
    // A device of another fleet, to find which process holds what.
    const elsewhere = await fx.createFleet(db, organization, 'Probe');
    const probed = await fx.createDevice(db, elsewhere.id, 'probe');
    probeDevice = { ...probed, key: await createApiKey(db, probed.actorId, { name: 'probe' }) };
    const provisioningKey = await createApiKey(db, fleet.actorId, { name: 'provisioning' });

    simulator = await startScaleSimulator();
    await simulator.start({
      servers: [
        {
          url: haproxy.url,
          fleets: [
            {
              slug: fleet.slug,
              provisioningKey,
              count: devices,
              applicationId: fleet.id,
              deviceType: 'raspberrypi4-64',
              deviceTypes: ['raspberrypi4-64'],
            },
          ],
        },
      ],
      pollIntervalMs: 60_000,
      metricsIntervalMs: 300_000,
      startSpreadMs: 20_000,
      stateDir,
    });
    const devicesUp = simulator;
    await waitForValue(
      'every device online with its cloudlink',
      () => devicesUp.status(),
      (status) => status.failed > 0 || (status.online === devices && status.cloudlink === devices),
      180_000,
    );
    const booted = await simulator.status();
    const servers = [...(await haproxy.stats()).values()].map(
      (row) => `${row.svname} ${row.status} ${row.check_status}`,
    );
    expect(booted, `${booted.firstFailure} (${servers.join(', ')})`).toMatchObject({
      failed: 0,
      cloudlink: devices,
    });
  }, 300_000);

  afterAll(async () => {
    for (const tail of tails) tail.close();
    await writer?.stop();
    await offline?.stop();
    await simulator?.stop();
    await Promise.all(nodes.map((node) => node.kill()));
    await haproxy?.close();
    await nats?.stop();
    await db?.close();
    await dropDatabase?.();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }, 120_000);

  const sessionsByNode = async (): Promise<Map<string, string[]>> => {
    const { rows } = await sql().query<{ node_id: string; uuid: string }>(
      `SELECT s."node_id", d."uuid" FROM "cloudlink_session" s
         JOIN "device" d ON d."id" = s."device" WHERE d."belongs_to__application" = $1`,
      [fleet.id],
    );
    const byNode = new Map<string, string[]>();
    for (const row of rows) byNode.set(row.node_id, [...(byNode.get(row.node_id) ?? []), row.uuid]);
    return byNode;
  };

  const nodeIdOf = async (node: FlotillaNode): Promise<string> => {
    const probe = await connectFakeDevice(node.url, probeDevice.key, { uuid: probeDevice.uuid });
    const [held] = await waitForValue(
      "the probe's session",
      async () =>
        (
          await sql().query<{ node_id: string }>(
            'SELECT "node_id" FROM "cloudlink_session" WHERE "device" = $1',
            [probeDevice.id],
          )
        ).rows,
      (rows) => rows.length === 1,
    );
    await probe.close();
    return held?.node_id ?? '';
  };

  // A terminal to the device's host through HAProxy: which process took it, and that it works.
  const terminalThrough = async (uuid: string, word: string): Promise<string> => {
    const client = connectTerminal(balancer(), { token: userKey, uuid, target: { kind: 'host' } });
    const node = new Promise<string>((resolve) =>
      client.socket.once('upgrade', (response) =>
        resolve(String(response.headers['x-flotilla-node'])),
      ),
    );
    await client.waitForMessage('ready');
    client.send(`echo ${word}\n`);
    await client.waitForText(word);
    client.socket.close();
    return node;
  };

  it('survives one process killed: devices reconnect, the tail and a new terminal work, nothing acknowledged is lost', async () => {
    // Every link recorded (a process writes its session a moment after the socket opened).
    const byNode = await waitForValue(
      'every session recorded',
      sessionsByNode,
      (held) => [...held.values()].flat().length === devices,
      60_000,
    ).catch(async (error: unknown) => {
      // Which devices hold a link but no session, and what the database says of them.
      const { rows } = await sql().query(
        `SELECT d."is_connected_to_vpn", d."cloudlink_lost_at" IS NOT NULL AS "lost", count(*)::int AS "n"
           FROM "device" d LEFT JOIN "cloudlink_session" s ON s."device" = d."id"
          WHERE d."belongs_to__application" = $1 AND s."device" IS NULL GROUP BY 1, 2`,
        [fleet.id],
      );
      throw new Error(`${String(error)}: devices without a session ${JSON.stringify(rows)}`);
    });
    expect(byNode.size).toBe(3);

    // The console's live tail of the writing device, and the process that serves it: the victim.
    writer = startDeviceWriter(balancer(), writerDevice);
    const running = writer;
    await waitFor('the first lines acknowledged', () => running.lines.length >= 5);
    const firstTail = await openLiveTail(balancer(), writerDevice.uuid, userKey, 1_000);
    tails.push(firstTail);
    const victim = nodes.find((node) => node.name === firstTail.node);
    if (!victim) throw new Error(`the tail came from ${firstTail.node}`);
    await waitFor('lines on the tail', () => firstTail.messages().length >= 10);

    // The victim's node id: the one a device connected straight to its port is held by.
    const victimNode = await nodeIdOf(victim);
    const orphans = byNode.get(victimNode) ?? [];
    expect(orphans.length).toBeGreaterThan(0);
    const sample = orphans[0] ?? '';
    await terminalThrough(sample, 'before-the-kill');

    const watch = watchOffline(sql(), fleet.id);
    offline = watch;
    await waitFor('the offline watch running', () => watch.samples() >= 2);
    const acknowledgedLines = [...running.lines];
    const acknowledgedReport = running.lastReport();
    const killedAt = Date.now();
    await victim.kill();

    // Every orphan up again (a change to up after the kill), on its first or second attempt:
    // within the agent's backoff of 1 s then 2 s, whatever the handshakes took on this machine.
    const orphanSet = new Set(orphans);
    const links = await waitForValue(
      'every device of the killed process connected again',
      () => (simulator ? simulator.links() : Promise.resolve<DeviceLinks>([])),
      (all) =>
        all.filter((device) => orphanSet.has(device.uuid) && reconnection(device, killedAt))
          .length === orphans.length,
      60_000,
    );
    const reconnections = new Map(
      links.flatMap((device) => {
        const found = orphanSet.has(device.uuid) ? reconnection(device, killedAt) : undefined;
        return found ? [[device.uuid, found] as const] : [];
      }),
    );
    const reconnectMs = new Map(
      [...reconnections].map(([uuid, { upAt }]) => [uuid, upAt - killedAt] as const),
    );
    const times = [...reconnectMs.values()].sort((a, b) => a - b);
    const attempts = [...reconnections.values()].map((found) => found.attempts);
    console.info(
      `multi-node: ${orphans.length} devices reconnected after the kill in ${Math.max(...attempts)} attempts at most; ` +
        `p50 ${times[Math.floor(times.length / 2)]} ms, max ${times.at(-1)} ms (backoff of the first two attempts: ${backoffOfTwoAttemptsMs} ms)`,
    );
    expect(attempts.filter((count) => count > 2)).toEqual([]);
    // The other devices never lost their links.
    const others = links.filter((device) => !orphanSet.has(device.uuid));
    expect(
      others.filter((device) => device.changes.some(([at, up]) => at > killedAt && !up)),
    ).toEqual([]);
    await waitFor('the sessions held by the surviving processes', async () => {
      const now = await sessionsByNode();
      return !now.has(victimNode) && [...now.values()].flat().length === devices;
    });

    // The tail's stream ended with its process; the console opens it again and misses nothing.
    await firstTail.ended;
    const secondTail = await openLiveTail(balancer(), writerDevice.uuid, userKey, 1_000);
    tails.push(secondTail);
    expect(secondTail.node).not.toBe(victim.name);
    const after = running.lines.length;
    await waitFor('lines written after the kill', () => running.lines.length >= after + 5);
    const seen = () => new Set([...firstTail.messages(), ...secondTail.messages()]);
    await waitFor('every acknowledged line on the tail', () =>
      running.lines.slice(0, after + 5).every((line) => seen().has(line)),
    );

    // A new terminal session works, through another process.
    expect(await terminalThrough(sample, 'after-the-kill')).not.toBe(victim.name);

    // The devices' polls and reports keep being answered through HAProxy, with no 5xx.
    const proxy = haproxy;
    if (!proxy) throw new Error('not set up');
    const counters = async () => {
      const backend = (await proxy.stats()).get('flotilla/BACKEND');
      return { requests: Number(backend?.req_tot), errors: Number(backend?.hrsp_5xx) };
    };
    const before = await counters();
    const later = await waitForValue(
      'requests after the kill',
      counters,
      (now) => now.requests >= before.requests + 200,
      60_000,
    );
    expect(later.errors - before.errors).toBe(0);

    // Nothing acknowledged is lost.
    await running.stop();
    const { rows: stored } = await sql().query<{ message: string }>(
      'SELECT "message" FROM "device_log" WHERE "device" = $1',
      [writerDevice.id],
    );
    const storedSet = new Set(stored.map((row) => row.message));
    expect(running.lines.filter((line) => !storedSet.has(line))).toEqual([]);
    expect(acknowledgedLines.filter((line) => !storedSet.has(line))).toEqual([]);
    const { rows: reported } = await sql().query<{ ip_address: string }>(
      'SELECT "ip_address" FROM "device" WHERE "id" = $1',
      [writerDevice.id],
    );
    const finalIndex = running.lastReport();
    expect([reportAddress(finalIndex), reportAddress(finalIndex + 1)]).toContain(
      reported[0]?.ip_address,
    );
    expect(finalIndex).toBeGreaterThan(acknowledgedReport);

    // No device shown offline longer than its reconnection took (a sample's resolution aside).
    await watch.stop();
    // The simulated devices (the writing device holds no cloudlink: never "connected").
    const simulated = new Set(links.map((device) => device.uuid));
    expect(simulated.size).toBe(devices);
    const tooLong = [...watch.seen]
      .filter(([uuid]) => simulated.has(uuid))
      .filter(([uuid, { first, last }]) => last - first > (reconnectMs.get(uuid) ?? 0) + 200);
    expect(tooLong).toEqual([]);
  }, 240_000);
});

// When the device's link was seen up again after `since` (after going down), and in how many
// connection attempts.
const reconnection = (
  device: DeviceLinks[number],
  since: number,
): { upAt: number; attempts: number } | undefined => {
  const down = device.changes.find(([at, up]) => at >= since && !up);
  if (down === undefined) return undefined;
  const back = device.changes.find(([at, up]) => at >= down[0] && up);
  if (back === undefined) return undefined;
  return { upAt: back[0], attempts: back[2] - down[2] };
};
