import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { describe, expect, it } from 'vitest';
import type { HostOsRelease, SupervisorCatalogue } from './api-host-os.js';
import type { FieldActionDevice } from './field-action-device.js';
import {
  osUpdateRows,
  osVersionOptions,
  supervisorMessages,
  supervisorRows,
  supervisorVersionOptions,
} from './host-update-plan.js';

const device = (
  id: number,
  overrides: Partial<Omit<FieldActionDevice, 'target'>> = {},
): FieldActionDevice => ({
  target: { id, uuid: `${id}`.repeat(4), name: `device-${id}`, fleetId: 12 },
  state: {
    isConnected: true,
    supervisorVersion: '16.0.0',
    isInLocalMode: false,
    isActive: true,
    localModeBlock: null,
  },
  deviceType: 'raspberrypi4-64',
  osVersion: 'balenaOS 6.0.13',
  osVariant: 'prod',
  supervisorVersion: '16.0.0',
  isOnline: true,
  isWebAccessible: false,
  supportUntil: null,
  pinnedReleaseId: null,
  ...overrides,
});

const osRelease = (id: number, version: string, deviceType = 'raspberrypi4-64'): HostOsRelease => ({
  id,
  rawVersion: version,
  variant: 'prod',
  status: 'success',
  isFinal: true,
  isInvalidated: false,
  baseVersion: null,
  deviceType,
  phase: 'current',
  knownIssues: null,
});

describe('OS update plan', () => {
  it('merges the choices of a selection and picks each device type its own release', () => {
    const releases = [
      osRelease(1, '6.0.13'),
      osRelease(2, '6.1.0'),
      osRelease(11, '6.0.13', 'jetson-xavier'),
      osRelease(12, '6.1.0', 'jetson-xavier'),
    ];
    const devices = [device(1), device(2, { deviceType: 'jetson-xavier' })];
    const options = osVersionOptions(devices, releases);
    expect(options.map((option) => [option.version, option.disabledReason])).toEqual([
      ['6.1.0', null],
      ['6.0.13', osUpdateMessages.alreadyRunning],
    ]);
    const rows = osUpdateRows(devices, { version: '6.1.0', variant: 'prod' }, releases);
    expect(rows.map((row) => row.releaseId)).toEqual([2, 12]);
    // The Jetson crosses its takeover version: flagged as advanced, with its warning.
    expect(rows[1]?.eligibility).toMatchObject({ takeover: true, willUpdate: true });
    expect(rows[0]?.eligibility.takeover).toBe(false);
  });

  it('updates no device the rules leave out', () => {
    const releases = [osRelease(1, '6.0.13'), osRelease(2, '6.1.0')];
    const rows = osUpdateRows(
      [device(1, { isOnline: false }), device(2, { osVersion: 'balenaOS 6.1.0' })],
      { version: '6.1.0', variant: 'prod' },
      releases,
    );
    expect(rows.map((row) => [row.eligibility.status, row.releaseId])).toEqual([
      ['offline', null],
      ['upToDate', null],
    ]);
  });
});

describe('supervisor update plan', () => {
  const catalogue: SupervisorCatalogue = {
    architectures: { 'raspberrypi4-64': 'aarch64', 'intel-nuc': 'amd64' },
    releases: ['16.0.0', '16.4.0', '17.0.0'].map((version, index) => ({
      id: 20 + index,
      rawVersion: version,
      cpuArchitecture: 'aarch64',
      status: 'success',
      isFinal: true,
      isInvalidated: false,
    })),
  };

  it('skips devices already at the version and blocks those that cannot take it', () => {
    const devices = [
      device(1),
      device(2, { supervisorVersion: '17.0.0' }),
      device(3, { deviceType: 'intel-nuc' }),
      device(4, { osVersion: 'balenaOS 2024.1.0' }),
    ];
    expect(supervisorVersionOptions(devices, catalogue)).toEqual(['17.0.0', '16.4.0']);
    const rows = supervisorRows(devices, '17.0.0', catalogue);
    expect(rows.map((row) => [row.outcome, row.releaseId, row.message])).toEqual([
      ['update', 22, null],
      ['skip', null, supervisorMessages.upToDate],
      ['blocked', null, 'No versions available'],
      ['blocked', null, 'Cannot update the supervisor of ESR devices'],
    ]);
  });
});
