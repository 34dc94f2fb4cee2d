import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';

// What the terminal panel may open (seed 001 section 8): the host OS with ssh-host, a service
// with ssh, and a service only while it runs; nothing when the device is not on the cloudlink or
// in local mode.

export type TerminalService = { name: string; running: boolean };

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

export const terminalUnavailable = (availability: TerminalAvailability): string | null => {
  if (availability.localMode)
    return 'The terminal is unavailable while the device is in local mode';
  if (!availability.connected)
    return 'The terminal is unavailable: the device is not connected to the cloud';
  return null;
};

export const terminalOptions = (availability: TerminalAvailability): TerminalOption[] => {
  const options: TerminalOption[] = [];
  if (availability.hostDenied === null) {
    options.push({ key: 'host', label: 'Host OS', target: { kind: 'host' }, disabled: null });
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
