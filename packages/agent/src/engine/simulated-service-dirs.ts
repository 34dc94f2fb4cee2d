import { handoverWait } from './handover.js';
import type { ServiceDirs } from './service-dirs.js';

// A simulated device's services have no lock directories on a file system and never signal a
// hand-over: the old container goes at the service's hand-over timeout, on the simulator's clock.
export const simulatedServiceDirs: ServiceDirs = {
  make: async () => undefined,
  clearHandover: async () => undefined,
  waitForHandover: (options) => handoverWait(options),
};
