import { describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import type { DeviceTarget } from '../target-types.js';
import { ManualClock } from '../test-support/manual-clock.js';
import type { DeviceInfo, LogLine } from './device-runtime.js';
import { SimulatedDevice } from './simulated-device.js';

// A simulated device told to run a newer host OS release downloads it (progress in
// provisioning_state / provisioning_progress), reboots into it and reports the new os_version; a
// failing update reports why and keeps the old version; a supervisor update swaps the version.

const stepMs = 1000;

const targetWith = (hostOs: DeviceTarget['hostOs']): DeviceTarget => ({
  name: 'misty-river',
  active: true,
  config: {},
  app: null,
  hostOs,
});

const setup = (random: () => number, failureChance = 0) => {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const device = new SimulatedDevice({
    profile: {
      name: 'misty-river',
      deviceType: 'raspberrypi4-64',
      arch: 'aarch64',
      osVersion: 'balenaOS 6.0.13',
      osVariant: 'prod',
      supervisorVersion: '16.7.9',
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
    random,
    timing: {
      downloadMs: [1000, 1000],
      stepMs: 100,
      lockRetryMs: 5000,
      rebootOfflineMs: [10_000, 10_000],
      logIntervalMs: [60_000, 60_000],
      osUpdateStepMs: stepMs,
    },
    osUpdateFailureChance: failureChance,
  });
  device.uuid = 'f'.repeat(32);
  const logs: LogLine[] = [];
  let reboots = 0;
  const events = {
    log: (line: LogLine) => logs.push(line),
    changed: () => undefined,
    pollNow: () => undefined,
    reboot: () => {
      reboots++;
      // As the agent does: power-cycle, then boot again with fresh events.
      void device.powerCycle('reboot').then(() => device.start(events));
    },
  };
  device.start(events);
  const messages = (): string[] => logs.map((line) => line.message);
  return { clock, device, messages, reboots: () => reboots };
};

const hostState = (info: DeviceInfo) => ({
  os_version: info.os_version,
  provisioning_state: info.provisioning_state,
  provisioning_progress: info.provisioning_progress,
});

describe('simulated host OS updates', () => {
  it('downloads with progress, reboots and comes back on the new version', async () => {
    const { clock, device, messages, reboots } = setup(() => 0.5);
    expect(hostState(device.info())).toEqual({
      os_version: 'balenaOS 6.0.13',
      provisioning_state: null,
      provisioning_progress: null,
    });
    device.applyTarget(targetWith({ releaseId: 12, version: '6.1.0' }), false);
    expect(hostState(device.info())).toEqual({
      os_version: 'balenaOS 6.0.13',
      provisioning_state: 'OS update: downloading balenaOS 6.1.0',
      provisioning_progress: 0,
    });
    await clock.runFor(2 * stepMs);
    expect(device.info().provisioning_progress).toBe(40);
    await clock.runFor(3 * stepMs);
    expect(hostState(device.info())).toMatchObject({
      provisioning_state: 'OS update: applying balenaOS 6.1.0',
      provisioning_progress: 100,
    });
    await clock.runFor(stepMs);
    expect(device.info().provisioning_state).toBe('OS update: rebooting into balenaOS 6.1.0');
    expect(reboots()).toBe(0);
    await clock.runFor(stepMs);
    expect(reboots()).toBe(1);
    // Offline for the reboot, then back on the new OS with nothing left to report.
    await clock.runFor(10_000);
    expect(hostState(device.info())).toEqual({
      os_version: 'balenaOS 6.1.0',
      provisioning_state: null,
      provisioning_progress: null,
    });
    expect(messages()).toContain('Host OS update complete: running balenaOS 6.1.0');
    // The same target again changes nothing.
    device.applyTarget(targetWith({ releaseId: 12, version: '6.1.0' }), false);
    expect(device.info().provisioning_state).toBeNull();
  });

  it('ignores a target that is not newer than what it runs', async () => {
    const { clock, device, reboots } = setup(() => 0.5);
    device.applyTarget(targetWith({ releaseId: 11, version: '6.0.13' }), false);
    device.applyTarget(targetWith({ releaseId: 10, version: '5.3.21' }), false);
    device.applyTarget(targetWith(null), false);
    await clock.runFor(20 * stepMs);
    expect(hostState(device.info())).toEqual({
      os_version: 'balenaOS 6.0.13',
      provisioning_state: null,
      provisioning_progress: null,
    });
    expect(reboots()).toBe(0);
  });

  it('a failing update reports an error, rolls back and does not retry that release', async () => {
    const { clock, device, messages, reboots } = setup(() => 0, 0.1);
    device.applyTarget(targetWith({ releaseId: 12, version: '6.1.0' }), false);
    await clock.runFor(10 * stepMs);
    expect(reboots()).toBe(0);
    expect(hostState(device.info())).toEqual({
      os_version: 'balenaOS 6.0.13',
      provisioning_state:
        'OS update to balenaOS 6.1.0 failed: the new root filesystem did not pass its checks; rolled back to balenaOS 6.0.13',
      provisioning_progress: null,
    });
    expect(messages().some((line) => line.includes('failed'))).toBe(true);
    device.applyTarget(targetWith({ releaseId: 12, version: '6.1.0' }), false);
    await clock.runFor(10 * stepMs);
    expect(device.info().provisioning_state).toMatch(/^OS update to balenaOS 6.1.0 failed/);
    // A newer release is tried.
    device.applyTarget(targetWith({ releaseId: 13, version: '6.2.0' }), false);
    expect(device.info().provisioning_state).toBe('OS update: downloading balenaOS 6.2.0');
  });

  it('takes a newer supervisor release, never an older one', () => {
    const { device, messages } = setup(() => 0.5);
    device.applySupervisorRelease('16.4.0');
    expect(device.info().supervisor_version).toBe('16.7.9');
    device.applySupervisorRelease('17.0.1');
    expect(device.info().supervisor_version).toBe('17.0.1');
    expect(messages()).toContain('Supervisor updated from 16.7.9 to 17.0.1');
  });
});
