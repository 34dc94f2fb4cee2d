import { compareOsVersions, isEsrVersion, parseOsVersion } from './os-version.js';

export type SupervisorUpdateDevice = {
  supervisorVersion: string | null;
  osVersion: string | null;
  cpuArchitecture: string | null;
};

// One release of a `balena_os/<architecture>-supervisor` application.
export type SupervisorReleaseOption = {
  rawVersion: string;
  cpuArchitecture: string;
  status: string;
  isFinal: boolean;
  isInvalidated: boolean;
};

export const supervisorUpdateMessages = {
  esr: 'Cannot update the supervisor of ESR devices',
  unknownArchitecture: 'Could not find compatible cpu architecture',
  noVersions: 'No versions available',
} as const;

export type SupervisorUpdateChoices =
  { ok: true; releases: SupervisorReleaseOption[] } | { ok: false; message: string };

// Supervisor releases a device may move to: final, valid, successful releases built for its own
// CPU architecture and newer than the supervisor it runs, newest first. ESR devices keep the
// supervisor their OS ships with.
export const supervisorUpdateChoices = (
  device: SupervisorUpdateDevice,
  releases: readonly SupervisorReleaseOption[],
): SupervisorUpdateChoices => {
  const os = parseOsVersion(device.osVersion);
  if (os != null && isEsrVersion(os)) return { ok: false, message: supervisorUpdateMessages.esr };
  if (device.cpuArchitecture == null) {
    return { ok: false, message: supervisorUpdateMessages.unknownArchitecture };
  }
  const current = parseOsVersion(device.supervisorVersion);
  const offered = releases.flatMap((release) => {
    const version = parseOsVersion(release.rawVersion);
    const newer = version != null && (current == null || compareOsVersions(version, current) > 0);
    const usable =
      release.cpuArchitecture === device.cpuArchitecture &&
      release.isFinal &&
      !release.isInvalidated &&
      release.status === 'success';
    return newer && usable ? [{ version, release }] : [];
  });
  if (offered.length === 0) return { ok: false, message: supervisorUpdateMessages.noVersions };
  return {
    ok: true,
    releases: offered
      .sort((a, b) => compareOsVersions(b.version, a.version))
      .map(({ release }) => release),
  };
};
