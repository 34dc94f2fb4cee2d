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
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  const deploy = (version: string) =>
    deployEngineRelease({
      sdk: owner.sdk,
      fleetId: fleet.id,
      token: owner.token,
      dockerHost: builder.dockerHost,
      registryHost: registry.host,
      services: ['main', 'worker'].map((name) => ({
        name,
        script: `echo ${name} ${version} says $GREETING to $BALENA_DEVICE_UUID; exec sleep 3600`,
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
    const configPath = join(workDir, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        apiEndpoint: server.url,
        applicationId: fleet.id,
        deviceType: 'generic-amd64',
        apiKey: await provisioningKeyFor(owner.sdk, fleet.id),
        appUpdatePollInterval: 60_000,
        flotilla: {
          containerEngine: engine.socket,
          containerLockDir: join(workDir, 'locks'),
          rebootCommand: ['true'],
          shutdownCommand: ['true'],
        },
      }),
    );
    agent = await startRealAgent({ configPath, logger: silentLogger });
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
});
