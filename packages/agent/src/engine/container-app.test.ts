import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import type { TargetApp, TargetService } from '../target-types.js';
import { FakeEngine } from '../test-support/fake-engine.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { ContainerApp } from './container-app.js';
import { anyServiceLocked } from './update-locks.js';

const device = {
  uuid: 'a'.repeat(32),
  deviceType: 'generic-amd64',
  arch: 'amd64',
  osVersion: 'Debian 12',
  supervisorVersion: '17.0.0',
};

const service = (
  name: string,
  commit: string,
  extra: Partial<TargetService> = {},
): TargetService => ({
  name,
  id: name === 'main' ? 1 : 2,
  imageId: 10,
  image: `registry.test/v2/${name}${commit}@sha256:${commit.padEnd(64, '0')}`,
  running: true,
  environment: { GREETING: 'hello' },
  labels: {},
  composition: {},
  ...extra,
});

const app = (commit: string, services: TargetService[]): TargetApp => ({
  uuid: 'app-uuid',
  id: 7,
  name: 'demo',
  release: { commit, id: Number.parseInt(commit, 16), services, volumes: ['data'] },
});

describe('ContainerApp: the release on a container engine', () => {
  let engine: FakeEngine;
  let lockDir: string;
  let logs: string[];
  let clock: ManualClock;
  let containerApp: ContainerApp;

  beforeEach(async () => {
    engine = new FakeEngine();
    lockDir = await mkdtemp(join(tmpdir(), 'flotilla-locks-'));
    logs = [];
    clock = new ManualClock(0);
    containerApp = new ContainerApp({
      engine,
      device,
      registryAuth: (serveraddress) => ({ username: 'd_uuid', password: 'key', serveraddress }),
      scheduler: new Scheduler(clock),
      log: (message) => logs.push(message),
      serviceLog: () => undefined,
      changed: () => undefined,
      locked: async (force) => !force && (await anyServiceLocked(lockDir)),
      lockDir,
      retryMs: 1000,
    });
    containerApp.start();
  });

  afterEach(async () => {
    containerApp.stop();
    await rm(lockDir, { recursive: true, force: true });
  });

  const apply = async (target: TargetApp | null, force = false): Promise<void> => {
    containerApp.setTarget(target, force);
    await containerApp.settled;
  };

  it('pulls with the device credentials, creates and starts each service with its variables, and reports it', async () => {
    await apply(app('a1', [service('main', 'a1'), service('worker', 'a1', { running: false })]));
    expect(engine.pulledWith[0]).toEqual({
      username: 'd_uuid',
      password: 'key',
      serveraddress: 'registry.test',
    });
    expect(engine.calls).toEqual([
      `pull ${service('main', 'a1').image}`,
      `pull ${service('worker', 'a1').image}`,
      'create-volume 7_data',
      'create-network 7_default',
      'create main',
      'start main',
      'create worker',
    ]);
    const environment = engine.specOf('main')?.environment;
    expect(environment).toMatchObject({
      GREETING: 'hello',
      BALENA: '1',
      BALENA_DEVICE_UUID: device.uuid,
      RESIN_DEVICE_UUID: device.uuid,
      BALENA_SERVICE_NAME: 'main',
      BALENA_APP_ID: '7',
    });
    expect(engine.specOf('main')?.binds).toEqual([
      `${join(lockDir, 'main')}:/tmp/balena`,
      `${join(lockDir, 'main')}:/tmp/resin`,
    ]);
    expect(containerApp.report()).toEqual({
      'app-uuid': {
        release_uuid: 'a1',
        releases: {
          a1: {
            update_status: 'done',
            services: {
              main: {
                image: service('main', 'a1').image,
                status: 'Running',
                download_progress: null,
              },
              worker: {
                image: service('worker', 'a1').image,
                status: 'Installed',
                download_progress: null,
              },
            },
          },
        },
      },
    });
  });

  it('touches nothing that already matches the target, after a restart of the agent too', async () => {
    const target = app('a1', [service('main', 'a1')]);
    await apply(target);
    engine.calls.length = 0;
    await apply(target);
    expect(engine.calls).toEqual([]);
  });

  it('downloads before killing by default, kills first when the service asks, and then deletes the old images', async () => {
    await apply(app('a1', [service('main', 'a1'), service('worker', 'a1')]));
    engine.calls.length = 0;
    const killFirst = { 'io.balena.update.strategy': 'kill-then-download' };
    await apply(app('b2', [service('main', 'b2'), service('worker', 'b2', { labels: killFirst })]));
    expect(engine.calls).toEqual([
      `pull ${service('main', 'b2').image}`,
      'stop worker',
      'remove worker',
      `pull ${service('worker', 'b2').image}`,
      'stop main',
      'remove main',
      'create main',
      'start main',
      'create worker',
      'start worker',
      `remove-image ${service('main', 'a1').image}`,
      `remove-image ${service('worker', 'a1').image}`,
    ]);
  });

  it('removes the old image too under delete-then-download', async () => {
    await apply(app('a1', [service('main', 'a1')]));
    engine.calls.length = 0;
    const labels = { 'io.balena.update.strategy': 'delete-then-download' };
    await apply(app('b2', [service('main', 'b2', { labels })]));
    expect(engine.calls.slice(0, 3)).toEqual([
      'stop main',
      'remove main',
      `remove-image ${service('main', 'a1').image}`,
    ]);
  });

  it('replaces a service whose variables changed and removes the services the target dropped', async () => {
    await apply(app('a1', [service('main', 'a1'), service('worker', 'a1')]));
    engine.calls.length = 0;
    await apply(app('a1', [service('main', 'a1', { environment: { GREETING: 'hi' } })]));
    expect(engine.calls).toEqual([
      'stop main',
      'remove main',
      'create main',
      'start main',
      'stop worker',
      'remove worker',
      `remove-image ${service('worker', 'a1').image}`,
    ]);
    expect(engine.specOf('main')?.environment.GREETING).toBe('hi');
  });

  it('waits for an update lock, applies once it is released, and a forced update goes through', async () => {
    await apply(app('a1', [service('main', 'a1')]));
    await mkdir(join(lockDir, 'main'), { recursive: true });
    await writeFile(join(lockDir, 'main', 'updates.lock'), '');
    engine.calls.length = 0;
    await apply(app('b2', [service('main', 'b2')]));
    // Downloaded meanwhile; the running service untouched.
    expect(engine.calls).toEqual([`pull ${service('main', 'b2').image}`]);
    expect(logs).toContain('Updates are locked: the update waits for the lock');
    const blocked = containerApp.report()['app-uuid'];
    expect(blocked?.release_uuid).toBe('a1');
    expect(blocked?.releases.b2?.update_status).toBe('downloaded');
    expect(blocked?.releases.a1?.services.main?.status).toBe('Running');
    await rm(join(lockDir, 'main', 'updates.lock'));
    clock.advance(1000);
    await containerApp.settled;
    expect(engine.calls).toContain('create main');
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('b2');

    await writeFile(join(lockDir, 'main', 'updates.lock'), '');
    await apply(app('c3', [service('main', 'c3')]), true);
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('c3');
  });

  it('says when the engine is away, tries again, and carries on once it answers', async () => {
    engine.down = 'connect ENOENT /var/run/docker.sock';
    await apply(app('a1', [service('main', 'a1')]));
    expect(containerApp.engineProblem).toBe('connect ENOENT /var/run/docker.sock');
    expect(logs).toContain(
      'The container engine failed: connect ENOENT /var/run/docker.sock; trying again',
    );
    expect(containerApp.report()['app-uuid']?.releases.a1?.update_status).toBe('aborted');
    engine.down = null;
    clock.advance(1000);
    await containerApp.settled;
    expect(containerApp.engineProblem).toBeNull();
    expect(logs).toContain('The container engine answers again');
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('a1');
  });

  it('stops and removes every container when the target has no release', async () => {
    await apply(app('a1', [service('main', 'a1')]));
    await apply(null);
    expect(engine.containers.size).toBe(0);
  });

  it("mounts the release's named volumes, publishes ports and starts services after those they depend on", async () => {
    await apply(
      app('a1', [
        service('main', 'a1', {
          composition: {
            volumes: ['data:/data', 'undeclared:/x'],
            ports: ['8080:80'],
            dependsOn: ['worker'],
          },
        }),
        service('worker', 'a1'),
      ]),
    );
    expect(engine.calls.filter((call) => /^(create|start)/.test(call))).toEqual([
      'create-volume 7_data',
      'create-network 7_default',
      'create worker',
      'start worker',
      'create main',
      'start main',
    ]);
    // Only the declared volume: nothing the release does not declare.
    expect(engine.specOf('main')?.binds).toEqual([
      `${join(lockDir, 'main')}:/tmp/balena`,
      `${join(lockDir, 'main')}:/tmp/resin`,
      '7_data:/data',
    ]);
    expect(engine.specOf('main')?.ports).toEqual(['8080:80']);
  });

  it('purges: stops the services, removes the volumes and starts the release again', async () => {
    const target = app('a1', [service('main', 'a1', { composition: { volumes: ['data:/data'] } })]);
    await apply(target);
    engine.calls.length = 0;
    await containerApp.purge();
    expect(engine.calls).toEqual([
      'stop main',
      'remove main',
      'remove-volume 7_data',
      'create-volume 7_data',
      'create main',
      'start main',
    ]);
    expect(logs).toContain('Purged application data');
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('a1');
  });

  it('reports a refused download as a failed update, not an engine away, and tries again later and later', async () => {
    const target = app('a1', [service('main', 'a1')]);
    const image = service('main', 'a1').image;
    engine.refusedPulls.set(image, 'pull access denied');
    await apply(target);
    expect(containerApp.engineProblem).toBeNull();
    expect(logs).toContain('Update failed: pull access denied; trying again');
    expect(containerApp.report()['app-uuid']?.releases.a1?.update_status).toBe('aborted');
    const pulls = () => engine.calls.filter((call) => call === `pull ${image}`).length;
    // Backing off: 2 s after the first failure, then 4 s.
    clock.advance(1999);
    await containerApp.settled;
    expect(pulls()).toBe(1);
    clock.advance(1);
    await containerApp.settled;
    expect(pulls()).toBe(2);
    // Said once while the failure stays the same.
    expect(logs.filter((line) => line.startsWith('Update failed')).length).toBe(1);
    engine.refusedPulls.delete(image);
    clock.advance(4000);
    await containerApp.settled;
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('a1');
  });
});
