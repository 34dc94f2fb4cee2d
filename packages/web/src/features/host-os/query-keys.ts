import { queryRoots } from '../../api/query-roots.js';

// The host OS catalogue as platform administrators keep it; the device types and architectures
// its pickers offer live under the device types root, shared with the fleet screens.
export const hostOsKeys = {
  all: queryRoots.hostOsCatalogue,
  releases: [...queryRoots.hostOsCatalogue, 'releases'] as const,
  images: [...queryRoots.hostOsCatalogue, 'images'] as const,
  deviceTypes: [...queryRoots.deviceTypes, 'with-architecture'] as const,
};
