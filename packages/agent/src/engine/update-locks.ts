import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

// The lock files an application takes inside its container (/tmp/balena/updates.lock, or the
// legacy /tmp/resin/resin-updates.lock): each service's /tmp/balena and /tmp/resin are this
// directory on the host, `<lockDir>/<service>`, so the agent sees them.
export const lockFileNames = ['updates.lock', 'resin-updates.lock'];

export const serviceLockBinds = (lockDir: string, service: string): string[] => [
  `${join(lockDir, service)}:/tmp/balena`,
  `${join(lockDir, service)}:/tmp/resin`,
];

// Whether any service holds its update lock.
export const anyServiceLocked = async (lockDir: string): Promise<boolean> => {
  let services: string[];
  try {
    services = await readdir(lockDir);
  } catch {
    return false;
  }
  for (const service of services) {
    let files: string[];
    try {
      files = await readdir(join(lockDir, service));
    } catch {
      continue;
    }
    if (files.some((file) => lockFileNames.includes(file))) return true;
  }
  return false;
};
