import { queryRoots } from '../../api/query-roots.js';

// The host OS access check has its own root: device actions do not change it, so their
// invalidations leave it alone.
export const terminalKeys = {
  hostOsAccess: (uuid: string) => [...queryRoots.hostOsAccess, uuid] as const,
};
