import type { HostUpdateActionId } from '@flotilla/shared/devices/device-action-permissions';
import type { ActionSpec } from './device-actions.js';

// OS and supervisor updates: the release each device should run, written through /v7 like
// balena-sdk's pinToOsRelease and pinToSupervisorRelease. Devices of different types (or CPU
// architectures) take the same version from different releases, so each device has its own.
export type HostUpdateInput = {
  version: string;
  // The OS release's variant ('' for a unified release; none for the supervisor).
  variant?: string;
  releases: Readonly<Record<number, number>>;
  // Offline devices whose update waits for them to come back, and for how long (hours).
  queue?: { hours: number; deviceIds: readonly number[] };
};

export type HostUpdateRequest = { id: HostUpdateActionId; input: HostUpdateInput };

export const isHostUpdateAction = (id: string): id is HostUpdateActionId =>
  id === 'os-update' || id === 'supervisor-update';

// The in-console page on the OS catalogue and the update rules (docs/HOST-OS.md).
const docs = '/docs/host-os';

export const hostUpdateSpecs: Record<HostUpdateActionId, ActionSpec> = {
  'os-update': {
    id: 'os-update',
    label: 'Update OS',
    title: 'Update host OS',
    blurb:
      'The device downloads the chosen balenaOS release and reboots into it. Its services stop while it updates, and it cannot go back to an older version.',
    confirmLabel: 'Update OS',
    confirm: true,
    destructive: false,
    forceable: false,
    done: (subject) => `Started the OS update of ${subject}`,
    docs,
  },
  'supervisor-update': {
    id: 'supervisor-update',
    label: 'Update supervisor',
    title: 'Update supervisor',
    blurb:
      'The device downloads the chosen supervisor release and restarts its supervisor; the services keep running. It cannot go back to an older version.',
    confirmLabel: 'Update supervisor',
    confirm: true,
    destructive: false,
    forceable: false,
    done: (subject) => `Started the supervisor update of ${subject}`,
    docs,
  },
};
