import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';

// What the terminal panel may open: the host OS with ssh-host (and where
// the host OS access check allows it), a service with ssh, and a service only while it is
// running or idle; nothing when the device is not on the cloudlink or in local mode.

// `installId`: the install the service runs now (a session reconnects when it changes), null
// while none runs.
export type TerminalService = { name: string; running: boolean; installId: number | null };

export type TerminalOption = {
  key: string;
  label: string;
  target: TerminalTarget;
  disabled: string | null;
};

export type TerminalAvailability = {
  connected: boolean;
  localMode: boolean;
  hostDenied: string | null;
  serviceDenied: string | null;
  services: readonly TerminalService[];
};

// The part of a device's image installs the terminal reads.
export type TerminalInstall = {
  id: number;
  status: string;
  installs__image: { is_a_build_of__service: { service_name: string }[] }[];
};

// A running or idle container takes a shell.
export const acceptsShell = (status: string): boolean => {
  const normalized = status.toLowerCase();
  return normalized === 'running' || normalized === 'idle';
};

// One entry per service, whatever the number of its installs (an update has the old and the new
// release's side by side): running when one of them runs, with that install's id.
export const terminalServices = (installs: readonly TerminalInstall[]): TerminalService[] => {
  const byName = new Map<string, TerminalService>();
  for (const install of installs) {
    for (const image of install.installs__image) {
      for (const { service_name: name } of image.is_a_build_of__service) {
        const known = byName.get(name);
        if (acceptsShell(install.status)) {
          // Two running installs (a handover): the newer one is the one a new shell reaches.
          const installId = Math.max(install.id, known?.installId ?? 0);
          byName.set(name, { name, running: true, installId });
        } else if (!known) {
          byName.set(name, { name, running: false, installId: null });
        }
      }
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
};

export const terminalUnavailable = (availability: TerminalAvailability): string | null => {
  if (availability.localMode)
    return 'The terminal is unavailable while the device is in local mode';
  if (!availability.connected)
    return 'The terminal is unavailable: the device is not connected to the cloud';
  return null;
};

// `hostAccess`: the answer of GET /access/v1/hostos/:uuid: null while it is asked, else why the
// host OS is closed (an unsupported OS version) or '' when it is open.
export const terminalOptions = (
  availability: TerminalAvailability,
  hostAccess: string | null,
): TerminalOption[] => {
  const options: TerminalOption[] = [];
  if (availability.hostDenied === null) {
    options.push({
      key: 'host',
      label: 'Host OS',
      target: { kind: 'host' },
      disabled:
        hostAccess === null ? 'Host OS (checking access…)' : hostAccess === '' ? null : hostAccess,
    });
  }
  if (availability.serviceDenied === null) {
    for (const service of availability.services) {
      options.push({
        key: `service:${service.name}`,
        label: service.name,
        target: { kind: 'service', service: service.name },
        disabled: service.running ? null : `${service.name} is not running`,
      });
    }
  }
  return options;
};
