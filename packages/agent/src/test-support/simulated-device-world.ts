import { Scheduler } from '../scheduler.js';
import type { DeviceTarget, TargetRelease } from '../target-types.js';
import { ManualClock } from './manual-clock.js';
import type { LogLine } from '../runtime/device-runtime.js';
import { SimulatedDevice } from '../runtime/simulated-device.js';

// A simulated device on a manual clock, and its targets and readings, for the simulator's tests.
export const target = (
  commit: string,
  services = ['web', 'sensor-reader'],
  config: Record<string, string> = {},
  environment: Record<string, Record<string, string>> = {},
  labels: Record<string, string> = {},
): DeviceTarget => ({
  name: 'misty-river',
  active: true,
  config,
  app: {
    uuid: 'app-uuid',
    id: 7,
    name: 'demo',
    release: {
      commit,
      id: 1,
      volumes: [],
      services: services.map((name, index) => ({
        name,
        id: index + 1,
        imageId: 100 + index,
        image: `registry/${name}-${commit}@sha256:${'0'.repeat(64)}`,
        running: true,
        environment: environment[name] ?? {},
        labels,
        composition: {},
      })),
    },
  },
});

// The same fleet app with another release (or none).
export const withRelease = (base: DeviceTarget, release: TargetRelease | null): DeviceTarget => ({
  ...base,
  app: base.app && { ...base.app, release },
});

export const setup = (updateLocked = false) => {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const device = new SimulatedDevice({
    profile: {
      name: 'misty-river',
      deviceType: 'raspberrypi4-64',
      arch: 'aarch64',
      osVersion: 'balenaOS 6.0.13',
      osVariant: 'prod',
      supervisorVersion: '17.0.1',
      ipAddress: '192.168.1.20',
      macAddress: 'DC:A6:32:01:02:03',
      metrics: {
        memoryTotalMb: 3796,
        storageTotalMb: 29_664,
        storageBlockDevice: '/dev/mmcblk0',
        mayUndervolt: true,
      },
    },
    scheduler,
    random: () => 0.5,
    timing: {
      downloadMs: [1000, 1000],
      stepMs: 100,
      lockRetryMs: 5000,
      rebootOfflineMs: [10_000, 10_000],
      logIntervalMs: [2000, 2000],
    },
    updateLocked,
  });
  device.uuid = 'f'.repeat(32);
  const logs: LogLine[] = [];
  const polls: boolean[] = [];
  let changes = 0;
  device.start({
    log: (line) => logs.push(line),
    changed: () => changes++,
    pollNow: (force) => polls.push(force),
  });
  return { clock, device, logs, polls, changes: () => changes };
};

export const statuses = (device: SimulatedDevice): string[] =>
  device.services.map((service) => service.status);

export const messages = (logs: readonly LogLine[]): string[] => logs.map((line) => line.message);

export const imageOf = (service: string, commit: string): string =>
  `registry/${service}-${commit}@sha256:${'0'.repeat(64)}`;

// With downloads of 1 s and steps of 100 ms, a two-service release is in within 3 s.
