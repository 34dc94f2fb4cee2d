import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RealAgent, startRealAgent } from '@flotilla/agent/real-agent';
import { silentLogger } from '@flotilla/agent/logger';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '@flotilla/server/test-support/distribution-registry';
import { type DockerEngine, startDockerEngine } from '@flotilla/server/test-support/docker-engine';
import { freePort } from '@flotilla/server/test-support/free-port';
import { connectTerminal } from '@flotilla/server/test-support/terminal-client';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { devicePage } from '../support/pages/device-pages.js';
import {
  type BalenaFleet,
  type BalenaUser,
  createBalenaFleet,
  provisioningKeyFor,
  registerBalenaUser,
  waitUntil,
} from '../support/balena-sdk-setup.js';
import { deployEngineRelease } from '../support/engine-release.js';

// A real device on this machine: the agent in real mode runs the fleet's release on a real
// dockerd (Debian's docker.io), pulling the images by digest from a real Distribution registry
// with its device key (the registry sends dockerd to Flotilla's token service). The release is
// deployed as balena deploy does (support/engine-release.ts). Images are built from scratch
// around Debian's static busybox: nothing is pulled from outside.

const deadlineMs = 90_000;

describe('a real device runs the fleet release on a container engine', () => {
  let workDir: string;
  let registry: DistributionRegistry;
  // The device's engine, and another that builds the releases (so the device really pulls).
  let engine: DockerEngine;
  let builder: DockerEngine;
  let server: TestServer;
  let owner: BalenaUser;
  let fleet: BalenaFleet;
  let agent: RealAgent | undefined;
  let configPath: string;
  // A held update lock is looked at again every half second here (30 s on a device).
  const containerTiming = { retryMs: 500, refreshMs: 500 };

  const deviceUuid = (): string => {
    if (!agent) throw new Error('no agent');
    return agent.uuid;
  };

  type Line = { message: string };
  const history = async (): Promise<Line[]> =>
    (await owner.sdk.logs.history(deviceUuid())) as Line[];

  const runsRelease = (releaseId: number) =>
    waitUntil(
      `the device to run release ${releaseId}`,
      () => details(deviceUuid()),
      (device) =>
        device.release === releaseId &&
        ['main', 'worker'].every((service) => device.services[service]?.status === 'Running'),
      { timeoutMs: deadlineMs },
    );

  const indexOf = (lines: readonly Line[], start: string): number =>
    lines.findIndex((line) => line.message.startsWith(start));
  const lastIndexOf = (lines: readonly Line[], start: string): number =>
    lines.findLastIndex((line) => line.message.startsWith(start));

  // The containers of the device's engine, by service.
  const containers = async (): Promise<Record<string, { id: string; state: string }>> => {
    const { body } = await engine.get(
      `/containers/json?all=1&filters=${encodeURIComponent(JSON.stringify({ label: ['io.balena.supervised=true'] }))}`,
    );
    const list: unknown = JSON.parse(body);
    const found: Record<string, { id: string; state: string }> = {};
    if (!Array.isArray(list)) return found;
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue;
      const labels: unknown = Reflect.get(item, 'Labels');
      const service =
        typeof labels === 'object' && labels !== null
          ? Reflect.get(labels, 'io.balena.service-name')
          : undefined;
      if (typeof service === 'string') {
        found[service] = {
          id: String(Reflect.get(item, 'Id')),
          state: String(Reflect.get(item, 'State')),
        };
      }
    }
    return found;
  };

  const deploy = (version: string, labels: Record<string, string> = {}) =>
    deployEngineRelease({
      sdk: owner.sdk,
      fleetId: fleet.id,
      token: owner.token,
      dockerHost: builder.dockerHost,
      registryHost: registry.host,
      services: ['main', 'worker'].map((name) => ({
        name,
        script: `echo ${name} ${version} says $GREETING to $BALENA_DEVICE_UUID; exec sleep 3600`,
        labels,
      })),
    });

  // Each service's newest container as the device page reads it, and the release it runs.
  const details = async (uuid: string) => {
    const device = await owner.sdk.models.device.getWithServiceDetails(uuid, {
      $select: ['is_running__release'],
    });
    const services = Object.values(device.current_services_by_app)[0] ?? {};
    const running = device.is_running__release;
    return {
      release: running !== null && '__id' in running ? running.__id : null,
      services: Object.fromEntries(
        Object.entries(services).map(([name, containers]) => [name, containers[0]]),
      ),
    };
  };

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'flotilla-real-device-'));
    const dataDir = join(workDir, 'flotilla');
    const registryHost = `127.0.0.1:${await freePort()}`;
    server = await startTestServer({
      config: { dataDir, registry: { url: `http://${registryHost}`, host: registryHost } },
    });
    registry = await startDistributionRegistry(workDir, dataDir, {
      host: registryHost,
      realm: `${server.url}/auth/v1/token`,
    });
    engine = await startDockerEngine();
    builder = await startDockerEngine();
    owner = await registerBalenaUser(server.url, 'real-device');
    fleet = await createBalenaFleet(owner.sdk, 'Real', 'generic-amd64');
  });

  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    await engine?.stop();
    await builder?.stop();
    await registry?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it('pulls the release, runs both services with their variables and reports them running', async () => {
    const release = await deploy('v1');
    await owner.sdk.models.application.envVar.set(fleet.id, 'GREETING', 'hello');
    configPath = join(workDir, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        apiEndpoint: server.url,
        applicationId: fleet.id,
        deviceType: 'generic-amd64',
        apiKey: await provisioningKeyFor(owner.sdk, fleet.id),
        appUpdatePollInterval: 10_000,
        flotilla: {
          containerEngine: engine.socket,
          containerLockDir: join(workDir, 'locks'),
          rebootCommand: ['true'],
          shutdownCommand: ['true'],
        },
      }),
    );
    agent = await startRealAgent({ configPath, logger: silentLogger, containerTiming });
    const uuid = agent.uuid;

    const running = await waitUntil(
      'both services running the release',
      () => details(uuid),
      (device) =>
        device.release === release.id &&
        ['main', 'worker'].every((service) => device.services[service]?.status === 'Running'),
      { timeoutMs: deadlineMs },
    );
    expect(running.services.main?.commit).toBe(release.commit);

    // Their output reaches the device's logs, with the fleet's variable and the injected uuid.
    const logs = await waitUntil(
      'the services to greet',
      async () => (await owner.sdk.logs.history(uuid)) as { message: string }[],
      (lines) =>
        ['main', 'worker'].every((service) =>
          lines.some((line) => line.message === `${service} v1 says hello to ${uuid}`),
        ),
      { timeoutMs: deadlineMs },
    );
    expect(logs.some((line) => line.message.startsWith("Downloading image '"))).toBe(true);
  });

  it("shows the device's services running the release on its console page", async () => {
    const [release] = await owner.sdk.models.release.getAllByApplication(fleet.id, {
      $select: ['commit', 'raw_version'],
      $orderby: { id: 'desc' },
    });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({
        baseURL: server.url.replace('127.0.0.1', 'localhost'),
        viewport: { width: 1366, height: 860 },
      });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
      const device = devicePage(page);
      await device.open(deviceUuid());
      for (const service of ['main', 'worker']) {
        await device.serviceRow(service).filter({ hasText: 'Running' }).waitFor();
      }
      const label = release?.raw_version ?? release?.commit.slice(0, 7) ?? '';
      await device.field('Current release').filter({ hasText: label }).waitFor();
      await page.screenshot({ path: 'data/e2e-screens/real-device.png', fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('replaces the services of a new release after downloading it (download-then-kill)', async () => {
    const release = await deploy('v2');
    await runsRelease(release.id);
    const lines = await history();
    const downloaded = indexOf(lines, `Downloading image '${release.images.main?.location ?? ''}`);
    expect(downloaded).toBeGreaterThan(-1);
    expect(lastIndexOf(lines, "Killing service 'main'")).toBeGreaterThan(downloaded);
  });

  it('kills a service before downloading its new image when its label asks (kill-then-download)', async () => {
    const before = await history();
    const release = await deploy('v3', { 'io.balena.update.strategy': 'kill-then-download' });
    await runsRelease(release.id);
    const lines = (await history()).slice(before.length);
    const killed = indexOf(lines, "Killing service 'main'");
    expect(killed).toBeGreaterThan(-1);
    expect(
      indexOf(lines, `Downloading image '${release.images.main?.location ?? ''}`),
    ).toBeGreaterThan(killed);
  });

  it('defers an update while a service holds its update lock, and applies it once released', async () => {
    const current = await details(deviceUuid());
    // The lock as the application takes it, /tmp/balena/updates.lock inside the container.
    const lockFile = join(workDir, 'locks', 'main', 'updates.lock');
    await writeFile(lockFile, '');
    const before = await history();
    const release = await deploy('v4');
    await waitUntil(
      'the device to say the update waits for the lock',
      async () => (await history()).slice(before.length),
      (lines) => indexOf(lines, 'Updates are locked') > -1,
      { timeoutMs: deadlineMs },
    );
    expect((await details(deviceUuid())).release).toBe(current.release);
    await rm(lockFile);
    await runsRelease(release.id);
  });

  it('restarts exactly the service asked for', async () => {
    const [release] = await owner.sdk.models.release.getAllByApplication(fleet.id, {
      $select: ['id'],
      $orderby: { id: 'desc' },
    });
    const greetings = async (service: string) =>
      (await history()).filter(
        (line) => line.message === `${service} v4 says hello to ${deviceUuid()}`,
      ).length;
    await waitUntil(
      'main to have greeted',
      () => greetings('main'),
      (count) => count === 1,
      {
        timeoutMs: deadlineMs,
      },
    );
    const [image] = await owner.sdk.pine.get({
      resource: 'image',
      options: {
        $select: ['id'],
        $filter: {
          is_a_build_of__service: { $any: { $alias: 's', $expr: { s: { service_name: 'main' } } } },
          release_image: {
            $any: { $alias: 'ri', $expr: { ri: { is_part_of__release: release?.id ?? 0 } } },
          },
        },
      },
    });
    await owner.sdk.models.device.restartService(deviceUuid(), image?.id ?? 0);
    await waitUntil(
      'main to greet again',
      () => greetings('main'),
      (count) => count === 2,
      {
        timeoutMs: deadlineMs,
      },
    );
    expect(await greetings('worker')).toBe(1);
  });

  it('leaves running containers untouched when the agent restarts', async () => {
    const before = await containers();
    const starts = (all: readonly Line[]): number =>
      all.filter((line) => line.message.startsWith('Flotilla agent starting')).length;
    const startsBefore = starts(await history());
    await agent?.stop();
    agent = await startRealAgent({ configPath, logger: silentLogger, containerTiming });
    const [release] = await owner.sdk.models.release.getAllByApplication(fleet.id, {
      $select: ['id'],
      $orderby: { id: 'desc' },
    });
    await runsRelease(release?.id ?? 0);
    // The new agent started (its own start line, not the first agent's), read the engine, and
    // changed nothing.
    const lines = await waitUntil(
      'the restarted agent to report',
      () => history(),
      (all) => starts(all) > startsBefore,
      { timeoutMs: deadlineMs },
    );
    expect(await containers()).toEqual(before);
    expect(
      lines
        .slice(lastIndexOf(lines, 'Flotilla agent starting'))
        .some((line) => line.message.startsWith('Killing service')),
    ).toBe(false);
  });

  it('keeps a named volume across restarts, and purge empties it', async () => {
    const release = await deployEngineRelease({
      sdk: owner.sdk,
      fleetId: fleet.id,
      token: owner.token,
      dockerHost: builder.dockerHost,
      registryHost: registry.host,
      services: [
        {
          name: 'main',
          script:
            'if [ -e /data/marker ]; then echo main found the marker; else echo main has no marker; fi; touch /data/marker; exec sleep 3600',
          volumes: ['data:/data'],
        },
        { name: 'worker', script: 'exec sleep 3600' },
      ],
    });
    await runsRelease(release.id);
    const said = async (message: string) =>
      (await history()).filter((line) => line.message === message).length;
    await waitUntil(
      'main to find no marker',
      () => said('main has no marker'),
      (n) => n === 1,
      {
        timeoutMs: deadlineMs,
      },
    );
    await owner.sdk.models.device.restartService(deviceUuid(), release.images.main?.id ?? 0);
    await waitUntil(
      'main to find its marker',
      () => said('main found the marker'),
      (n) => n === 1,
      {
        timeoutMs: deadlineMs,
      },
    );
    await owner.sdk.models.device.purge(deviceUuid());
    await waitUntil(
      'main to start afresh',
      () => said('main has no marker'),
      (n) => n === 2,
      {
        timeoutMs: deadlineMs,
      },
    );
  });

  it("opens the web terminal inside a service's container", async () => {
    const terminal = connectTerminal(server.url, {
      token: owner.token,
      uuid: deviceUuid(),
      target: { kind: 'service', service: 'main' },
    });
    await terminal.waitForMessage('ready');
    terminal.send('echo "inside $BALENA_SERVICE_NAME"; exit\n');
    await terminal.waitForText('inside main');
    await terminal.waitForMessage('exit');
  });

  it('says when its engine goes away and carries on once it is back', async () => {
    const before = await history();
    await engine.pause();
    await waitUntil(
      'the device to say its engine failed',
      async () => (await history()).slice(before.length),
      (lines) => indexOf(lines, 'The container engine failed') > -1,
      { timeoutMs: deadlineMs },
    );
    await engine.resume();
    await waitUntil(
      'the device to say its engine answers again',
      async () => (await history()).slice(before.length),
      (lines) => indexOf(lines, 'The container engine answers again') > -1,
      { timeoutMs: deadlineMs },
    );
    const [release] = await owner.sdk.models.release.getAllByApplication(fleet.id, {
      $select: ['id'],
      $orderby: { id: 'desc' },
    });
    await runsRelease(release?.id ?? 0);
  });
});
