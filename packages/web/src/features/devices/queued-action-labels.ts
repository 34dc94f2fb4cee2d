import type { QueueableAction, QueuedActionStatus } from '@flotilla/shared/devices/queued-actions';

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
};

export const queuedStatusLabels: Record<QueuedActionStatus, [string, ChipColor]> = {
  queued: ['Queued', 'info'],
  delivering: ['Delivering', 'info'],
  done: ['Done', 'success'],
  failed: ['Failed', 'error'],
  expired: ['Expired', 'warning'],
  cancelled: ['Cancelled', 'default'],
};
