import {
  deviceOsVariant,
  isOfferedOsRelease,
  keepsVariant,
  type OsUpdateEligibility,
  osUpdateEligibility,
  type OsUpdateTarget,
  osVersionChoices,
} from '@flotilla/shared/host-os/os-update-eligibility';
import { compareOsVersions, parseOsVersion } from '@flotilla/shared/host-os/os-version';
import {
  supervisorUpdateChoices,
  supervisorUpdateMessages,
} from '@flotilla/shared/host-os/supervisor-update';
import type { HostOsRelease, SupervisorCatalogue } from './api-host-os.js';
import { actionMessages } from './device-action-rules.js';
import type { FieldActionDevice } from './field-action-device.js';

// What the OS and supervisor update dialogs offer and which devices each choice updates, from
// the shared rules (shared/host-os) that the server enforces on the write.

export type VersionOption = {
  key: string;
  version: string;
  variant: string;
  phase: string | null;
  disabledReason: string | null;
};

const releasesOf = (device: FieldActionDevice, releases: readonly HostOsRelease[]) =>
  releases.filter((release) => release.deviceType === device.deviceType);

const byNewest = (a: { version: string }, b: { version: string }): number => {
  const left = parseOsVersion(a.version);
  const right = parseOsVersion(b.version);
  return left && right ? compareOsVersions(right, left) : 0;
};

// The version picker: each device's choices (newer releases of its line and variant, its current
// version disabled), merged for a selection; a version is disabled only when it is every
// offering device's current one.
export const osVersionOptions = (
  devices: readonly FieldActionDevice[],
  releases: readonly HostOsRelease[],
): VersionOption[] => {
  const options = new Map<string, VersionOption>();
  for (const device of devices) {
    const own = releasesOf(device, releases);
    for (const { release, disabledReason } of osVersionChoices(device, own)) {
      const key = `${release.rawVersion} ${release.variant}`;
      const known = options.get(key);
      // The choices are the catalogue's own rows: find the row to read its phase.
      const phase = own.find((candidate) => candidate === release)?.phase ?? null;
      options.set(key, {
        key,
        version: release.rawVersion,
        variant: release.variant,
        phase: known?.phase ?? phase,
        disabledReason:
          known === undefined || known.disabledReason !== null ? disabledReason : null,
      });
    }
  }
  return [...options.values()].sort(byNewest);
};

export type OsUpdateRow = {
  device: FieldActionDevice;
  eligibility: OsUpdateEligibility;
  // The release of the device's own host application that the write sets (when it updates).
  releaseId: number | null;
};

const targetRelease = (
  device: FieldActionDevice,
  target: OsUpdateTarget,
  releases: readonly HostOsRelease[],
): HostOsRelease | undefined => {
  const wanted = parseOsVersion(target.version);
  const variant = deviceOsVariant(device);
  return releases.find((release) => {
    const version = parseOsVersion(release.rawVersion);
    return (
      wanted !== null &&
      version !== null &&
      isOfferedOsRelease(release) &&
      compareOsVersions(version, wanted) === 0 &&
      (release.variant === target.variant || release.variant === '') &&
      keepsVariant(variant, release.variant)
    );
  });
};

// With `queueOffline`, an offline device is judged as if online: its update waits in its queue.
export const osUpdateRows = (
  devices: readonly FieldActionDevice[],
  target: OsUpdateTarget,
  releases: readonly HostOsRelease[],
  queueOffline = false,
): OsUpdateRow[] =>
  devices.map((device) => {
    const own = releasesOf(device, releases);
    const eligibility = osUpdateEligibility(
      {
        isOnline: device.isOnline || queueOffline,
        deviceType: device.deviceType,
        osVersion: device.osVersion,
        osVariant: device.osVariant,
      },
      target,
      own,
    );
    const release = eligibility.willUpdate ? targetRelease(device, target, own) : undefined;
    return { device, eligibility, releaseId: release?.id ?? null };
  });

export const supervisorMessages = {
  upToDate: 'Already running this or a newer supervisor version',
  notAvailable: 'This version is not available for the device',
  notAll: 'Not all of the selected devices are updatable to this version',
} as const;

export type SupervisorRow = {
  device: FieldActionDevice;
  // update: the write sets `releaseId`; skip: already there; blocked: cannot take this version.
  outcome: 'update' | 'skip' | 'blocked';
  message: string | null;
  releaseId: number | null;
};

const supervisorChoicesOf = (device: FieldActionDevice, catalogue: SupervisorCatalogue) =>
  supervisorUpdateChoices(
    {
      supervisorVersion: device.supervisorVersion,
      osVersion: device.osVersion,
      cpuArchitecture: catalogue.architectures[device.deviceType] ?? null,
    },
    catalogue.releases,
  );

// Why the device has no supervisor version to move to (ESR, unknown architecture, none newer).
export const supervisorChoiceBlock = (
  device: FieldActionDevice,
  catalogue: SupervisorCatalogue,
): string | null => {
  const choices = supervisorChoicesOf(device, catalogue);
  return choices.ok ? null : choices.message;
};

// The supervisor versions any of the devices may move to, newest first.
export const supervisorVersionOptions = (
  devices: readonly FieldActionDevice[],
  catalogue: SupervisorCatalogue,
): string[] => {
  const versions = new Set<string>();
  for (const device of devices) {
    const choices = supervisorChoicesOf(device, catalogue);
    if (choices.ok) for (const release of choices.releases) versions.add(release.rawVersion);
  }
  return [...versions]
    .map((version) => ({ version }))
    .sort(byNewest)
    .map((o) => o.version);
};

// An offline device is skipped unless its update is to wait in its queue (`queueOffline`).
export const supervisorRows = (
  devices: readonly FieldActionDevice[],
  version: string,
  catalogue: SupervisorCatalogue,
  queueOffline = false,
): SupervisorRow[] =>
  devices.map((device) => {
    const choices = supervisorChoicesOf(device, catalogue);
    const blocked = (message: string): SupervisorRow => ({
      device,
      outcome: 'blocked',
      message,
      releaseId: null,
    });
    // An ESR device or an unknown architecture cannot move at all; a device with nothing newer
    // is simply up to date.
    if (!choices.ok && choices.message !== supervisorUpdateMessages.noVersions) {
      return blocked(choices.message);
    }
    const current = parseOsVersion(device.supervisorVersion);
    const wanted = parseOsVersion(version);
    if (current && wanted && compareOsVersions(current, wanted) >= 0) {
      return { device, outcome: 'skip', message: supervisorMessages.upToDate, releaseId: null };
    }
    if (!choices.ok) return blocked(choices.message);
    if (!device.isOnline && !queueOffline) {
      return { device, outcome: 'skip', message: actionMessages.offline, releaseId: null };
    }
    const choice = choices.releases.find((candidate) => candidate.rawVersion === version);
    const release = catalogue.releases.find((candidate) => candidate === choice);
    if (release === undefined) return blocked(supervisorMessages.notAvailable);
    return { device, outcome: 'update', message: null, releaseId: release.id };
  });
