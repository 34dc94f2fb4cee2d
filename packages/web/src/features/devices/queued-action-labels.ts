import type {
  QueueableAction,
  QueuedAction,
  QueuedActionStatus,
} from '@flotilla/shared/devices/queued-actions';

type ChipColor = 'default' | 'info' | 'success' | 'error' | 'warning';

export const queuedActionLabels: Record<QueueableAction, string> = {
  blink: 'Identify',
  'restart-services': 'Restart services',
  reboot: 'Reboot',
  shutdown: 'Shut down',
  purge: 'Purge data',
  update: 'Check for updates',
  'start-service': 'Start service',
  'stop-service': 'Stop service',
  'restart-service': 'Restart service',
  'os-update': 'OS update',
  'supervisor-update': 'Supervisor update',
};

// The action as the queue lists it: an OS or supervisor update names its version.
export const queuedActionText = (queued: Pick<QueuedAction, 'action' | 'params'>): string => {
  const { version } = queued.params;
  if (version === undefined) return queuedActionLabels[queued.action];
  if (queued.action === 'os-update') return `OS update to balenaOS ${version}`;
  if (queued.action === 'supervisor-update') {
    return `Supervisor update to v${version.replace(/^v/, '')}`;
  }
  return queuedActionLabels[queued.action];
};

export const queuedStatusLabels: Record<QueuedActionStatus, [string, ChipColor]> = {
  queued: ['Queued', 'info'],
  delivering: ['Delivering', 'info'],
  done: ['Done', 'success'],
  failed: ['Failed', 'error'],
  expired: ['Expired', 'warning'],
  cancelled: ['Cancelled', 'default'],
};
