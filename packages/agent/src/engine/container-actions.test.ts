import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import type { TargetApp, TargetService } from '../target-types.js';
import { FakeEngine } from '../test-support/fake-engine.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { type ContainerActionContext, runContainerAction } from './container-actions.js';
import { ContainerApp } from './container-app.js';

const service = (name: string, id: number): TargetService => ({
  name,
  id,
  imageId: 10 + id,
  image: `registry.test/v2/${name}@sha256:${String(id).repeat(64)}`,
  running: true,
  environment: {},
  labels: {},
  composition: {},
});

const services = [service('main', 1), service('worker', 2)];

const app: TargetApp = {
  uuid: 'app-uuid',
  id: 7,
  name: 'demo',
  release: { commit: 'a1', id: 1, services, volumes: [] },
};

// The actions real and simulated devices share, on the strict fake engine.
describe('container actions', () => {
  let engine: FakeEngine;
  let lockDir: string;
  let containerApp: ContainerApp;
  let locked: boolean;
  let logs: string[];
  let context: ContainerActionContext;

  beforeEach(async () => {
    engine = new FakeEngine();
    lockDir = await mkdtemp(join(tmpdir(), 'flotilla-actions-'));
    locked = false;
    logs = [];
    containerApp = new ContainerApp({
      engine,
      device: {
        uuid: 'a'.repeat(32),
        deviceType: 'generic-amd64',
        arch: 'amd64',
        osVersion: 'Debian 12',
        supervisorVersion: '17.0.0',
      },
      registryAuth: (serveraddress) => ({ username: 'd_uuid', password: 'key', serveraddress }),
      scheduler: new Scheduler(new ManualClock(0)),
      log: () => undefined,
      serviceLog: () => undefined,
      changed: () => undefined,
      locked: async (force) => locked && !force,
      lockDir,
    });
    containerApp.start();
    containerApp.setTarget(app, false);
    await containerApp.settled;
    engine.calls.length = 0;
    context = {
      app: containerApp,
      engine,
      services,
      locked: async (force) => locked && !force,
      log: (message) => logs.push(message),
      stopTimeoutSeconds: 10,
    };
  });

  afterEach(async () => {
    containerApp.stop();
    await rm(lockDir, { recursive: true, force: true });
  });

  it('restarts every service, and stops, starts or restarts the one named', async () => {
    // The supervisor's answer, which balena-sdk's restartApplication returns as it is.
    expect(await runContainerAction(context, 'restart-services', {})).toEqual({
      status: 200,
      body: 'OK',
    });
    expect((await runContainerAction(context, 'stop-service', { imageId: 12 })).status).toBe(200);
    expect(
      (await runContainerAction(context, 'start-service', { serviceName: 'worker' })).status,
    ).toBe(200);
    expect(
      (await runContainerAction(context, 'restart-service', { serviceName: 'main' })).status,
    ).toBe(200);
    expect(engine.calls.filter((call) => !call.startsWith('ping'))).toEqual([
      'restart main',
      'restart worker',
      'stop worker',
      'start worker',
      'restart main',
    ]);
    expect(logs.slice(0, 3)).toEqual([
      'Restarting services',
      "Restarting service 'main'",
      "Restarting service 'worker'",
    ]);
  });

  it('answers 400 without a service, 404 for one the target does not have', async () => {
    expect((await runContainerAction(context, 'restart-service', {})).status).toBe(400);
    expect((await runContainerAction(context, 'restart-service', { imageId: 99 })).status).toBe(
      404,
    );
    expect(
      (await runContainerAction(context, 'stop-service', { serviceName: 'nope' })).status,
    ).toBe(404);
    expect(engine.calls).toEqual([]);
  });

  it('refuses under an update lock unless forced; starting a service needs no lock', async () => {
    locked = true;
    for (const action of [
      'restart-services',
      'stop-service',
      'restart-service',
      'purge',
    ] as const) {
      expect((await runContainerAction(context, action, { serviceName: 'main' })).status).toBe(423);
    }
    expect(engine.calls).toEqual([]);
    expect(logs[0]).toBe(
      'Updates are locked: restart-services refused (use force to override the lock)',
    );
    expect(
      (await runContainerAction(context, 'stop-service', { serviceName: 'main', force: true }))
        .status,
    ).toBe(200);
    expect(
      (await runContainerAction(context, 'start-service', { serviceName: 'main' })).status,
    ).toBe(200);
    expect(engine.calls).toEqual(['stop main', 'start main']);
  });

  it('purges: the services are removed and installed again', async () => {
    expect(await runContainerAction(context, 'purge', {})).toEqual({
      status: 200,
      body: { Data: 'OK', Error: '' },
    });
    expect(engine.calls).toEqual(
      expect.arrayContaining(['remove main', 'remove worker', 'create main', 'start main']),
    );
    expect(containerApp.containers.map((container) => container.state)).toEqual([
      'running',
      'running',
    ]);
  });
});
