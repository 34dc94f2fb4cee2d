import type { ComponentStatus, OverallStatus } from '@flotilla/shared/status/status';

type Tone = 'success' | 'info' | 'warning' | 'error' | 'default';

// How each status reads and which colour it takes, on the page and in the header's dot.
export const overallText: Record<OverallStatus, string> = {
  operational: 'All systems operational',
  maintenance: 'Maintenance in progress',
  degraded: 'Some systems are degraded',
  outage: 'Some systems are down',
};

export const overallSeverity: Record<OverallStatus, 'success' | 'info' | 'warning' | 'error'> = {
  operational: 'success',
  maintenance: 'info',
  degraded: 'warning',
  outage: 'error',
};

export const overallTone: Record<OverallStatus, Tone> = {
  operational: 'success',
  maintenance: 'info',
  degraded: 'warning',
  outage: 'error',
};

export const componentText: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  outage: 'Down',
  unknown: 'Not known',
};

export const componentTone: Record<ComponentStatus, Tone> = {
  operational: 'success',
  degraded: 'warning',
  outage: 'error',
  unknown: 'default',
};
