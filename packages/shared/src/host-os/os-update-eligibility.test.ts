import { describe, expect, it } from 'vitest';
import {
  defaultOsUpdateRules,
  esrBaseOf,
  osUpdateEligibility,
  osUpdateMessages,
  osVersionChoices,
  type OsReleaseOption,
  type OsUpdateDevice,
} from './os-update-eligibility.js';

const release = (rawVersion: string, extra: Partial<OsReleaseOption> = {}): OsReleaseOption => ({
  rawVersion,
  variant: 'prod',
  status: 'success',
  isFinal: true,
  isInvalidated: false,
  baseVersion: null,
  ...extra,
});

const catalogue: OsReleaseOption[] = [
  release('5.1.20'),
  release('6.0.13'),
  release('6.0.13', { variant: 'dev' }),
  release('6.1.0'),
  release('6.2.0', { isInvalidated: true }),
  release('6.3.0', { isFinal: false }),
  release('6.4.0', { status: 'failed' }),
  release('7.0.0', { variant: '' }),
  release('2024.4.0', { baseVersion: '6.0.13' }),
  release('2024.10.0', { baseVersion: '6.1.0' }),
  release('2025.1.0'),
];

const device = (extra: Partial<OsUpdateDevice> = {}): OsUpdateDevice => ({
  isOnline: true,
  deviceType: 'raspberrypi4-64',
  osVersion: 'balenaOS 6.0.13',
  osVariant: 'prod',
  ...extra,
});

const check = (d: OsUpdateDevice, version: string, variant = 'prod') =>
  osUpdateEligibility(d, { version, variant }, catalogue);

describe('osUpdateEligibility', () => {
  it('updates an online device to a newer offered release of its variant', () => {
    expect(check(device(), '6.1.0')).toEqual({
      status: 'updatable',
      message: null,
      willUpdate: true,
      takeover: false,
    });
    // A unified image serves both variants.
    expect(check(device({ osVariant: 'dev' }), '7.0.0', '')).toMatchObject({
      status: 'updatable',
      willUpdate: true,
    });
  });

  it('skips offline devices before anything else', () => {
    expect(check(device({ isOnline: false }), '6.1.0')).toEqual({
      status: 'offline',
      message: 'Update disabled for offline devices',
      willUpdate: false,
      takeover: false,
    });
  });

  it('does not support sources below the self-service minimum, unless the device type allows it', () => {
    const old = device({ osVersion: 'Resin OS 2.12.0+rev1', osVariant: 'prod' });
    const result = check(old, '6.1.0');
    expect(result).toMatchObject({ status: 'notSupported', willUpdate: false });
    expect(result.message).toBe('Update not supported for this device type and OS version');
    expect(check(device({ osVersion: null }), '6.1.0').status).toBe('notSupported');
    expect(check(device({ osVersion: 'unknown' }), '6.1.0').status).toBe('notSupported');
    const excepted = osUpdateEligibility(old, { version: '6.1.0', variant: 'prod' }, catalogue, {
      minimumSourceVersion: '2.14.0+rev1',
      minimumSourceVersionByDeviceType: { 'raspberrypi4-64': '2.0.0' },
      takeoverFromByDeviceType: {},
    });
    expect(excepted.status).toBe('updatable');
  });

  it('refuses targets the catalogue does not offer for the device', () => {
    const cases: [string, string][] = [
      ['9.9.9', 'prod'], // not in the catalogue
      ['6.2.0', 'prod'], // invalidated
      ['6.3.0', 'prod'], // draft
      ['6.4.0', 'prod'], // failed
      ['6.0.13', 'dev'], // the other variant
      ['not-a-version', 'prod'],
    ];
    for (const [version, variant] of cases) {
      const result = check(device({ osVersion: '6.0.2' }), version, variant);
      expect(result.status, version).toBe('versionNotAvailable');
      expect(result.willUpdate).toBe(false);
      expect(result.message).toBe(
        `OS version ${version} is not supported for device type raspberrypi4-64`,
      );
    }
  });

  it('keeps dev devices on dev images and prod devices on prod images', () => {
    const dev = device({ osVersion: '6.0.2', osVariant: 'dev' });
    expect(check(dev, '6.1.0').status).toBe('versionNotAvailable');
    expect(check(dev, '6.0.13', 'dev').status).toBe('updatable');
    // The variant written into the version counts when the field is empty.
    expect(
      check(device({ osVersion: '6.0.2+rev1.dev', osVariant: null }), '6.0.13', 'dev').status,
    ).toBe('updatable');
  });

  it('is up to date at or above the target', () => {
    expect(check(device(), '6.0.13')).toEqual({
      status: 'upToDate',
      message: 'Already running selected version',
      willUpdate: false,
      takeover: false,
    });
    expect(check(device({ osVersion: '6.1.0' }), '5.1.20')).toMatchObject({
      status: 'upToDate',
      message: osUpdateMessages.runningNewer,
      willUpdate: false,
    });
  });

  it('switches a regular device to ESR when it is not above the ESR base', () => {
    expect(check(device({ osVersion: '6.0.13' }), '2024.4.0')).toEqual({
      status: 'updatableSwitchToEsr',
      message: osUpdateMessages.updatableSwitchToEsr,
      willUpdate: true,
      takeover: false,
    });
    expect(check(device({ osVersion: '5.1.20' }), '2024.10.0').status).toBe('updatableSwitchToEsr');
  });

  it('refuses the ESR switch that would be a downgrade, or whose base is unknown', () => {
    expect(check(device({ osVersion: '6.1.0' }), '2024.4.0')).toEqual({
      status: 'downgradeCannotSwitchToEsr',
      message: osUpdateMessages.downgradeCannotSwitchToEsr,
      willUpdate: false,
      takeover: false,
    });
    expect(check(device({ osVersion: '6.0.13' }), '2025.1.0').status).toBe(
      'downgradeCannotSwitchToEsr',
    );
  });

  it('reads a base before 2.88.4 written without a revision as +rev1', () => {
    const old = [release('2021.1.0', { baseVersion: '2.50.1' })];
    const rules = { ...defaultOsUpdateRules, minimumSourceVersion: '2.12.0' };
    const on = (osVersion: string) =>
      osUpdateEligibility(
        device({ osVersion }),
        { version: '2021.1.0', variant: 'prod' },
        old,
        rules,
      ).status;
    // 2.50.1 was published as 2.50.1+rev1: a device running it is not above the base.
    expect(on('2.50.1+rev1')).toBe('updatableSwitchToEsr');
    expect(on('2.50.1+rev2')).toBe('downgradeCannotSwitchToEsr');
    expect(esrBaseOf('2.50.1')).toMatchObject({ revision: 1 });
    expect(esrBaseOf('2.50.1+rev3')).toMatchObject({ revision: 3 });
    // From 2.88.4 on a version without a revision is itself.
    expect(esrBaseOf('2.88.4')).toMatchObject({ revision: 0 });
    expect(esrBaseOf('6.0.13')).toMatchObject({ revision: 0 });
    expect(esrBaseOf(null)).toBeNull();
  });

  it('keeps ESR devices on the ESR line', () => {
    const esr = device({ osVersion: '2024.4.0' });
    expect(check(esr, '7.0.0', '')).toEqual({
      status: 'forbiddenSwitchToNonEsr',
      message: osUpdateMessages.forbiddenSwitchToNonEsr,
      willUpdate: false,
      takeover: false,
    });
    expect(check(esr, '2024.10.0').status).toBe('updatable');
    expect(check(esr, '2024.4.0').status).toBe('upToDate');
  });

  it('flags a takeover update as advanced, only when it crosses the takeover version', () => {
    const xavier = (osVersion: string) =>
      device({ deviceType: 'jetson-xavier-nx-devkit-emmc', osVersion });
    expect(check(xavier('6.0.13'), '7.0.0', '')).toEqual({
      status: 'updatable',
      message: osUpdateMessages.takeover,
      willUpdate: true,
      takeover: true,
    });
    expect(check(xavier('6.1.0'), '7.0.0', '').takeover).toBe(false);
    expect(check(xavier('6.0.13'), '6.0.13+rev1').status).toBe('versionNotAvailable');
    expect(check(device({ osVersion: '6.0.13' }), '7.0.0', '').takeover).toBe(false);
  });
});

describe('osVersionChoices', () => {
  const versions = (d: Parameters<typeof osVersionChoices>[0]) =>
    osVersionChoices(d, catalogue).map((c) => [
      c.release.rawVersion,
      c.release.variant,
      c.disabledReason,
    ]);

  it('lists newer offered releases of the same variant and line, current disabled, newest first', () => {
    expect(versions({ osVersion: '6.0.13', osVariant: 'prod' })).toEqual([
      ['7.0.0', '', null],
      ['6.1.0', 'prod', null],
      ['6.0.13', 'prod', 'Already running selected version'],
    ]);
    expect(versions({ osVersion: '6.0.2', osVariant: 'dev' })).toEqual([
      ['7.0.0', '', null],
      ['6.0.13', 'dev', null],
    ]);
    expect(versions({ osVersion: '2024.4.0', osVariant: 'prod' })).toEqual([
      ['2025.1.0', 'prod', null],
      ['2024.10.0', 'prod', null],
      ['2024.4.0', 'prod', 'Already running selected version'],
    ]);
  });

  it('offers nothing when the current version cannot be read', () => {
    expect(versions({ osVersion: null, osVariant: null })).toEqual([]);
  });
});
