import { describe, expect, it } from 'vitest';
import {
  acceptsShell,
  type TerminalAvailability,
  type TerminalInstall,
  terminalOptions,
  terminalServices,
} from './terminal-targets.js';

const install = (id: number, status: string, service: string): TerminalInstall => ({
  id,
  status,
  installs__image: [{ is_a_build_of__service: [{ service_name: service }] }],
});

const availability = (services: TerminalAvailability['services']): TerminalAvailability => ({
  connected: true,
  localMode: false,
  hostDenied: null,
  serviceDenied: null,
  services,
});

describe('terminal targets', () => {
  it('counts running and idle containers as able to take a shell', () => {
    expect(acceptsShell('Running')).toBe(true);
    expect(acceptsShell('Idle')).toBe(true);
    expect(acceptsShell('idle')).toBe(true);
    expect(acceptsShell('Stopped')).toBe(false);
    expect(acceptsShell('Downloading')).toBe(false);
  });

  it('lists each service once, with the install it runs now', () => {
    expect(
      terminalServices([
        install(1, 'Deleted', 'web'),
        install(4, 'Running', 'web'),
        install(2, 'Idle', 'worker'),
        install(3, 'exited', 'cron'),
        install(5, 'Downloading', 'cron'),
      ]),
    ).toEqual([
      { name: 'cron', running: false, installId: null },
      { name: 'web', running: true, installId: 4 },
      { name: 'worker', running: true, installId: 2 },
    ]);
    // Handing over between two running installs: the newer is the one a shell reaches.
    expect(terminalServices([install(9, 'Running', 'web'), install(7, 'Running', 'web')])).toEqual([
      { name: 'web', running: true, installId: 9 },
    ]);
  });

  it('keeps the host OS closed while its access is checked, and when the check says no', () => {
    const services = [{ name: 'web', running: true, installId: 4 }];
    const host = (hostAccess: string | null) =>
      terminalOptions(availability(services), hostAccess).find((option) => option.key === 'host')
        ?.disabled;
    expect(host('')).toBeNull();
    expect(host(null)).toBe('Host OS (checking access…)');
    expect(host('Host OS access needs balenaOS 2.0.0 or later')).toBe(
      'Host OS access needs balenaOS 2.0.0 or later',
    );
    expect(
      terminalOptions(availability(services), '').find((option) => option.key === 'service:web')
        ?.disabled,
    ).toBeNull();
  });
});
