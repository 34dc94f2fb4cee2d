import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@flotilla/agent/clock';
import { ContainerApp } from '@flotilla/agent/engine/container-app';
import type { ContainerEngine, ManagedContainer } from '@flotilla/agent/engine/container-engine';
import { dockerEngine } from '@flotilla/agent/engine/docker-engine';
import { Scheduler } from '@flotilla/agent/scheduler';
import type { TargetApp, TargetService } from '@flotilla/agent/target-types';
import { type DockerEngine, startDockerEngine } from '@flotilla/server/test-support/docker-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/balena-sdk-setup.js';

// The container app on a real private dockerd (Debian's docker.io): the release's compose fields
// as the engine applies them. Images are built from scratch around Debian's static busybox and
// named by their image id, so nothing is pulled (pulls by digest are real-device.contract.test.ts's
// business).

const docker = (dockerHost: string, args: readonly string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/docker',
      ['--host', dockerHost, ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`docker ${args[0] ?? ''} failed: ${stdout}${stderr}`));
        else resolve(stdout.trim());
      },
    );
  });

describe('the container app on a real engine', () => {
  let engine: DockerEngine;
  let workDir: string;
  let port: ContainerEngine;
  let app: ContainerApp;
  const lines: string[] = [];
  const agentLines: string[] = [];
  // Image ids: main's of two releases, the client's (unchanged across them), the user's own.
  const images: Record<'mainA' | 'mainB' | 'client' | 'user', string> = {
    mainA: '',
    mainB: '',
    client: '',
    user: '',
  };

  const build = async (name: string, script: string, tag?: string): Promise<string> => {
    const context = join(workDir, name);
    await mkdir(context);
    await copyFile('/bin/busybox', join(context, 'busybox'));
    await writeFile(
      join(context, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
        `CMD ["/bin/sh", "-c", ${JSON.stringify(script)}]`,
        '',
      ].join('\n'),
    );
    return docker(engine.dockerHost, [
      'build',
      '--quiet',
      ...(tag === undefined ? [] : ['--tag', tag]),
      context,
    ]);
  };

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'flotilla-engine-app-'));
    engine = await startDockerEngine();
    images.mainA = await build(
      'main-a',
      '[ -c /dev/flotilla-null ] && echo device mapped; [ -S /var/run/balena-engine.sock ] && echo engine socket at $DOCKER_HOST; exec sleep 3600',
    );
    images.mainB = await build('main-b', 'echo release b; exec sleep 3600');
    images.client = await build('client', 'exec sleep 3600');
    images.user = await build('user', 'exec sleep 3600', 'user/keep:1');
    port = dockerEngine(engine.socket);
    app = new ContainerApp({
      engine: port,
      device: {
        uuid: 'e'.repeat(32),
        deviceType: 'generic-amd64',
        arch: 'amd64',
        osVersion: 'Debian 12',
        supervisorVersion: '17.1.0',
        engineSocket: engine.socket,
      },
      registryAuth: (serveraddress) => ({ username: 'd_x', password: 'x', serveraddress }),
      scheduler: new Scheduler(systemClock),
      log: (message) => agentLines.push(message),
      serviceLog: (line) => lines.push(line.message),
      changed: () => undefined,
      locked: async () => false,
      lockDir: join(workDir, 'locks'),
      stopTimeoutSeconds: 1,
      refreshMs: 200,
    });
    app.start();
  });

  afterAll(async () => {
    app?.stop();
    // A bridge outlives its dockerd: whatever a failed test left is removed first.
    if (port) {
      for (const container of await port.list()) await port.remove(container.id);
      for (const network of await port.listNetworks()) await port.removeNetwork(network.name);
    }
    await engine?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const service = (name: string, image: string, extra: Partial<TargetService>): TargetService => ({
    name,
    id: name === 'main' ? 1 : 2,
    imageId: name === 'main' ? 10 : 20,
    image,
    running: true,
    environment: {},
    labels: {},
    composition: {},
    ...extra,
  });

  const release = (commit: string, main: string): TargetApp => ({
    uuid: 'app-uuid',
    id: 7,
    name: 'demo',
    release: {
      commit,
      id: commit === 'a1' ? 1 : 2,
      volumes: [],
      services: [
        service('main', main, {
          labels: { 'io.balena.features.balena-socket': '1' },
          composition: {
            devices: ['/dev/null:/dev/flotilla-null'],
            ulimits: [{ name: 'nofile', soft: 1024, hard: 2048 }],
            memLimitBytes: 64 * 1024 * 1024,
            memReservationBytes: 32 * 1024 * 1024,
            cpus: 0.5,
            cpuShares: 512,
            dns: ['10.0.0.2'],
            dnsSearch: ['lan'],
            dnsOpt: ['ndots:2'],
            securityOpt: ['no-new-privileges'],
          },
        }),
        // Healthy once it reaches main by its service name on the app's default network.
        service('client', images.client, {
          composition: {
            healthcheck: {
              test: ['CMD', 'ping', '-c1', '-W1', 'main'],
              intervalMs: 500,
              retries: 20,
            },
          },
        }),
      ],
    },
  });

  const apply = async (target: TargetApp | null): Promise<void> => {
    app.setTarget(target, false);
    await app.settled;
    expect(agentLines.filter((line) => line.startsWith('Update failed'))).toEqual([]);
  };

  const imageExists = async (id: string): Promise<boolean> =>
    (await engine.get(`/images/${id}/json`)).status === 200;

  const containerOf = (containers: ManagedContainer[], name: string) =>
    containers.find((container) => container.service === name);

  it('runs the release: services reach each other by name, the device and engine socket are there, health checks report', async () => {
    await apply(release('a1', images.mainA));
    const containers = await waitUntil(
      'the client to be healthy',
      () => port.list(),
      (found) => containerOf(found, 'client')?.health === 'healthy',
    );
    expect(containerOf(containers, 'main')?.state).toBe('running');
    await waitUntil(
      "main's checks of its device and the engine socket",
      () => [...lines],
      (found) =>
        found.includes('device mapped') &&
        found.includes(`engine socket at unix:///var/run/balena-engine.sock`),
    );
    const { body } = await engine.get('/networks/7_default');
    expect(JSON.parse(body)).toMatchObject({ Labels: { 'io.balena.supervised': 'true' } });
    // The limits, resolver and security options as the engine holds them (docker inspect).
    const inspected = await engine.get(`/containers/${containerOf(containers, 'main')?.id}/json`);
    expect(JSON.parse(inspected.body)).toMatchObject({
      HostConfig: {
        Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 2048 }],
        Memory: 64 * 1024 * 1024,
        MemoryReservation: 32 * 1024 * 1024,
        NanoCpus: 5e8,
        CpuShares: 512,
        Dns: ['10.0.0.2'],
        DnsSearch: ['lan'],
        DnsOptions: ['ndots:2'],
        SecurityOpt: ['no-new-privileges'],
      },
    });
  });

  it("deletes the replaced image after the update, and never the user's own", async () => {
    await apply(release('b2', images.mainB));
    await waitUntil(
      'release b to log',
      () => [...lines],
      (found) => found.includes('release b'),
    );
    expect(await imageExists(images.mainA)).toBe(false);
    expect(await imageExists(images.mainB)).toBe(true);
    expect(await imageExists(images.client)).toBe(true);
    expect(await imageExists(images.user)).toBe(true);
  });

  it('removes its containers and networks when the target has no release', async () => {
    await apply(null);
    expect(await port.list()).toEqual([]);
    expect(await port.listNetworks()).toEqual([]);
  });
});
