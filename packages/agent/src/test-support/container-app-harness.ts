import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerApp } from '../engine/container-app.js';
import type { DeviceFacts } from '../engine/container-spec.js';
import { anyServiceLocked } from '../engine/update-locks.js';
import { Scheduler } from '../scheduler.js';
import type { ReleaseNetwork, TargetApp, TargetService } from '../target-types.js';
import { FakeEngine } from './fake-engine.js';
import { ManualClock } from './manual-clock.js';

// A ContainerApp on the strict fake engine and a manual clock, with the target builders its
// tests share.

export const testDevice: DeviceFacts = {
  uuid: 'a'.repeat(32),
  deviceType: 'generic-amd64',
  arch: 'amd64',
  osVersion: 'Debian 12',
  supervisorVersion: '17.0.0',
};

export const testService = (
  name: string,
  commit: string,
  extra: Partial<TargetService> = {},
): TargetService => ({
  name,
  id: name === 'main' ? 1 : 2,
  imageId: 10,
  image: `registry.test/v2/${name}${commit}@sha256:${commit.padEnd(64, '0')}`,
  running: true,
  environment: {},
  labels: {},
  composition: {},
  ...extra,
});

export const testApp = (
  commit: string,
  services: TargetService[],
  networks?: ReleaseNetwork[],
): TargetApp => ({
  uuid: 'app-uuid',
  id: 7,
  name: 'demo',
  release: {
    commit,
    id: Number.parseInt(commit, 16),
    services,
    volumes: [],
    ...(networks ? { networks } : {}),
  },
});

export type ContainerAppHarness = {
  engine: FakeEngine;
  clock: ManualClock;
  containerApp: ContainerApp;
  lockDir: string;
  logs: string[];
  // Resolves once the app logs a line starting with `start` (at once if it already did).
  logged(start: string): Promise<void>;
  apply(target: TargetApp | null, force?: boolean): Promise<void>;
  // Stops the app; `keepLockDir` for an app started again on it.
  close(keepLockDir?: boolean): Promise<void>;
};

// `engine` and `lockDir` carry over from an earlier app: the agent restarted on the same machine.
export const startContainerApp = async (
  options: { device?: DeviceFacts; engine?: FakeEngine; lockDir?: string } = {},
): Promise<ContainerAppHarness> => {
  const engine = options.engine ?? new FakeEngine();
  const device = options.device ?? testDevice;
  const lockDir = options.lockDir ?? (await mkdtemp(join(tmpdir(), 'flotilla-locks-')));
  const logs: string[] = [];
  const waiting: { start: string; resolve: () => void }[] = [];
  const clock = new ManualClock(0);
  const containerApp = new ContainerApp({
    engine,
    device,
    registryAuth: (serveraddress) => ({ username: 'd_uuid', password: 'key', serveraddress }),
    scheduler: new Scheduler(clock),
    log: (message) => {
      logs.push(message);
      for (const waiter of waiting.filter(({ start }) => message.startsWith(start))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    serviceLog: () => undefined,
    changed: () => undefined,
    locked: async (force) => !force && (await anyServiceLocked(lockDir)),
    lockDir,
    retryMs: 1000,
  });
  containerApp.start();
  return {
    engine,
    clock,
    containerApp,
    lockDir,
    logs,
    logged: (start) =>
      logs.some((line) => line.startsWith(start))
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ start, resolve })),
    apply: async (target, force = false) => {
      containerApp.setTarget(target, force);
      await containerApp.settled;
    },
    close: async (keepLockDir = false) => {
      containerApp.stop();
      await containerApp.settled;
      if (!keepLockDir) await rm(lockDir, { recursive: true, force: true });
    },
  };
};
