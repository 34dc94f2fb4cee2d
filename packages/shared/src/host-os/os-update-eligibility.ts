import { compareOsVersions, isEsrVersion, parseOsVersion, type OsVersion } from './os-version.js';

export type OsUpdateStatus =
  | 'offline'
  | 'notSupported'
  | 'versionNotAvailable'
  | 'upToDate'
  | 'updatableSwitchToEsr'
  | 'downgradeCannotSwitchToEsr'
  | 'forbiddenSwitchToNonEsr'
  | 'updatable';

export type OsUpdateDevice = {
  isOnline: boolean;
  deviceType: string;
  osVersion: string | null;
  osVariant: string | null;
};

// One OS release of the device type's host application, as the catalogue serves it.
export type OsReleaseOption = {
  rawVersion: string;
  variant: string;
  status: string;
  isFinal: boolean;
  isInvalidated: boolean;
  // For an extended-support release, the regular version it was cut from; a device above it
  // would go back in time by switching.
  baseVersion: string | null;
};

export type OsUpdateTarget = { version: string; variant: string };

// Which source versions may update themselves, and which device types need a takeover (the disk
// is re-partitioned, so the update is flagged as advanced) when crossing a version.
export type OsUpdateRules = {
  minimumSourceVersion: string;
  minimumSourceVersionByDeviceType: Readonly<Record<string, string>>;
  takeoverFromByDeviceType: Readonly<Record<string, string>>;
};

// The same limits balena's update helper applies; older OS versions cannot run the updater.
export const defaultOsUpdateRules: OsUpdateRules = {
  minimumSourceVersion: '2.14.0+rev1',
  minimumSourceVersionByDeviceType: {},
  takeoverFromByDeviceType: {
    'jetson-xavier': '6.0.50',
    'jetson-xavier-nx-devkit': '6.0.50+rev1',
    'jetson-xavier-nx-devkit-emmc': '6.0.39',
  },
};

export type OsUpdateEligibility = {
  status: OsUpdateStatus;
  // Why the device is not updated, or what to know before updating it; null when nothing to say.
  message: string | null;
  // Only these devices are updated by a batch update.
  willUpdate: boolean;
  takeover: boolean;
};

export const osUpdateMessages = {
  offline: 'Update disabled for offline devices',
  notSupported: 'Update not supported for this device type and OS version',
  // A real host whose operator did not enable OS updates in its agent's configuration.
  hostNotSupported: 'OS updates are not supported on this host',
  versionNotAvailable: (version: string, deviceType: string): string =>
    `OS version ${version} is not supported for device type ${deviceType}`,
  alreadyRunning: 'Already running selected version',
  runningNewer: 'Already running a newer OS version than the selected one',
  updatableSwitchToEsr: 'This update switches the device to the extended support (ESR) line',
  downgradeCannotSwitchToEsr:
    'Cannot switch to this ESR version: the device runs a newer OS than the version it is based on',
  forbiddenSwitchToNonEsr: 'Devices on the extended support (ESR) line cannot leave it',
  takeover:
    'Advanced: this update re-partitions the disk (takeover); data may be lost and it cannot be rolled back',
} as const;

// The device's dev/prod variant: the reported field, or the one written into the version.
export const deviceOsVariant = (device: Pick<OsUpdateDevice, 'osVersion' | 'osVariant'>) =>
  device.osVariant === 'dev' || device.osVariant === 'prod'
    ? device.osVariant
    : (parseOsVersion(device.osVersion)?.variant ?? null);

// A unified image ('' variant) serves both; otherwise dev stays dev and prod stays prod.
export const keepsVariant = (deviceVariant: 'dev' | 'prod' | null, releaseVariant: string) =>
  releaseVariant === '' || (deviceVariant === 'dev') === (releaseVariant === 'dev');

// Only final, valid, successful releases are offered as update targets.
export const isOfferedOsRelease = (release: OsReleaseOption): boolean =>
  release.isFinal &&
  !release.isInvalidated &&
  release.status === 'success' &&
  parseOsVersion(release.rawVersion) != null;

const result = (
  status: OsUpdateStatus,
  message: string | null,
  takeover = false,
): OsUpdateEligibility => ({
  status,
  message,
  willUpdate: status === 'updatable' || status === 'updatableSwitchToEsr',
  takeover,
});

const needsTakeover = (
  deviceType: string,
  current: OsVersion,
  target: OsVersion,
  rules: OsUpdateRules,
): boolean => {
  const from = parseOsVersion(rules.takeoverFromByDeviceType[deviceType]);
  return (
    from != null && compareOsVersions(current, from) < 0 && compareOsVersions(target, from) >= 0
  );
};

// Versions before 2.88.4 were published with a revision: a base written without one means +rev1.
const firstUnrevisedVersion = parseOsVersion('2.88.4+rev0');

export const esrBaseOf = (raw: string | null): OsVersion | null => {
  const base = parseOsVersion(raw);
  if (base == null || firstUnrevisedVersion == null) return base;
  return base.revision === 0 && compareOsVersions(base, firstUnrevisedVersion) < 0
    ? { ...base, revision: 1 }
    : base;
};

export const osUpdateEligibility = (
  device: OsUpdateDevice,
  target: OsUpdateTarget,
  releases: readonly OsReleaseOption[],
  rules: OsUpdateRules = defaultOsUpdateRules,
): OsUpdateEligibility => {
  if (!device.isOnline) return result('offline', osUpdateMessages.offline);
  const current = parseOsVersion(device.osVersion);
  const minimum = parseOsVersion(
    rules.minimumSourceVersionByDeviceType[device.deviceType] ?? rules.minimumSourceVersion,
  );
  if (current == null || minimum == null || compareOsVersions(current, minimum) < 0) {
    return result('notSupported', osUpdateMessages.notSupported);
  }
  const wanted = parseOsVersion(target.version);
  const variant = deviceOsVariant(device);
  const release = releases.find((candidate) => {
    const version = parseOsVersion(candidate.rawVersion);
    return (
      isOfferedOsRelease(candidate) &&
      version != null &&
      wanted != null &&
      compareOsVersions(version, wanted) === 0 &&
      (candidate.variant === target.variant || candidate.variant === '') &&
      keepsVariant(variant, candidate.variant)
    );
  });
  if (wanted == null || release == null) {
    return result(
      'versionNotAvailable',
      osUpdateMessages.versionNotAvailable(target.version, device.deviceType),
    );
  }
  const deviceEsr = isEsrVersion(current);
  const targetEsr = isEsrVersion(wanted);
  if (deviceEsr && !targetEsr) {
    return result('forbiddenSwitchToNonEsr', osUpdateMessages.forbiddenSwitchToNonEsr);
  }
  if (!deviceEsr && targetEsr) {
    const base = esrBaseOf(release.baseVersion);
    // Without a known base the switch could be a downgrade, so it is refused.
    if (base == null || compareOsVersions(current, base) > 0) {
      return result('downgradeCannotSwitchToEsr', osUpdateMessages.downgradeCannotSwitchToEsr);
    }
    return result('updatableSwitchToEsr', osUpdateMessages.updatableSwitchToEsr);
  }
  const order = compareOsVersions(current, wanted);
  if (order >= 0) {
    return result(
      'upToDate',
      order === 0 ? osUpdateMessages.alreadyRunning : osUpdateMessages.runningNewer,
    );
  }
  const takeover = needsTakeover(device.deviceType, current, wanted, rules);
  return result('updatable', takeover ? osUpdateMessages.takeover : null, takeover);
};

export type OsVersionChoice = {
  release: OsReleaseOption;
  // The device's current version is listed but cannot be chosen.
  disabledReason: string | null;
};

// The version picker for one device: offered releases that keep its variant, newer than what it
// runs, plus its current version shown disabled. Newest first.
export const osVersionChoices = (
  device: Pick<OsUpdateDevice, 'osVersion' | 'osVariant'>,
  releases: readonly OsReleaseOption[],
): OsVersionChoice[] => {
  const current = parseOsVersion(device.osVersion);
  if (current == null) return [];
  const variant = deviceOsVariant(device);
  const currentEsr = isEsrVersion(current);
  const choices: { version: OsVersion; choice: OsVersionChoice }[] = [];
  for (const release of releases) {
    const version = parseOsVersion(release.rawVersion);
    if (version == null || !isOfferedOsRelease(release) || !keepsVariant(variant, release.variant))
      continue;
    // An ESR device stays on the ESR line; a regular device's picker lists the regular line.
    if (isEsrVersion(version) !== currentEsr) continue;
    const order = compareOsVersions(version, current);
    if (order < 0) continue;
    choices.push({
      version,
      choice: { release, disabledReason: order === 0 ? osUpdateMessages.alreadyRunning : null },
    });
  }
  return choices
    .sort((a, b) => compareOsVersions(b.version, a.version))
    .map(({ choice }) => choice);
};
