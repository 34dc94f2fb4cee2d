import { queryRoots } from '../../api/query-roots.js';
import { fleetKeys } from '../../fleet/query-keys.js';
import { pickerSearchText } from './release-picker-search.js';

// A fleet's releases live under the fleet's detail key, so every fleet write (a pin, a default
// release, a build) refreshes them too, and a release write refreshes the fleet with one call.
export const releaseKeys = {
  fleet: (fleetId: number) => fleetKeys.detail(fleetId),
  list: (fleetId: number, page: number, search: string) =>
    [...fleetKeys.detail(fleetId), 'releases', page, search] as const,
  detail: (fleetId: number, releaseId: number) =>
    [...fleetKeys.detail(fleetId), 'release', releaseId] as const,
  assets: (fleetId: number, releaseId: number) =>
    [...fleetKeys.detail(fleetId), 'release', releaseId, 'assets'] as const,
  picker: (fleetId: number, search: string) =>
    [...fleetKeys.detail(fleetId), 'release-picker', pickerSearchText(search)] as const,
  config: queryRoots.config,
};
