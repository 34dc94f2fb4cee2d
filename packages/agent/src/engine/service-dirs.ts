import { mkdir } from 'node:fs/promises';
import {
  clearHandover,
  type HandoverWait,
  type HandoverWaitOptions,
  waitForHandover,
} from './handover.js';

// Each service's lock directory on the host, which its containers see as /tmp/balena: made
// before a container mounts it, and where a hand-over's signal arrives (handover.ts). A
// simulated device has no such directories (simulated-service-dirs.ts).
export type ServiceDirs = {
  make(dir: string): Promise<void>;
  clearHandover(dir: string): Promise<void>;
  waitForHandover(options: HandoverWaitOptions): HandoverWait;
};

export const hostServiceDirs: ServiceDirs = {
  make: async (dir) => {
    await mkdir(dir, { recursive: true });
  },
  clearHandover,
  waitForHandover,
};
