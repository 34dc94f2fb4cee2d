import { queryRoots } from '../../api/query-roots.js';
import { deviceKeys } from '../../device/query-keys.js';
import type { DeviceListParams } from './useDeviceListParams.js';

// The device queries build on the floor's device keys (under the devices root), so one
// invalidation after an action refreshes the table, the map and the device page alike. The move
// targets are fleets the user sees, so they live under the fleets root and refresh with every
// fleet write.
export const devicesKeys = {
  all: deviceKeys.all,
  fleets: queryRoots.fleets,
  page: (fleetId: number, params: DeviceListParams) =>
    [...deviceKeys.fleet(fleetId), params] as const,
  tagKeys: (fleetId: number) => [...deviceKeys.fleet(fleetId), 'tag-keys'] as const,
  detail: deviceKeys.detail,
  moveTargets: (userId: number, deviceTypes: readonly string[]) =>
    [...queryRoots.fleets, 'move-targets', userId, deviceTypes] as const,
  deviceTypesWithArchitecture: () => [...queryRoots.deviceTypes, 'with-architecture'] as const,
  config: queryRoots.config,
  // The host OS catalogue (public rows every user reads), kept with the device types.
  osReleases: (deviceTypes: readonly string[]) =>
    [...queryRoots.deviceTypes, 'host-os', 'os', deviceTypes] as const,
  supervisorReleases: (deviceTypes: readonly string[]) =>
    [...queryRoots.deviceTypes, 'host-os', 'supervisor', deviceTypes] as const,
  // The provisioning images Add device offers (they change with the catalogue's writes).
  osImages: (deviceType: string) =>
    [...queryRoots.hostOsCatalogue, 'offered-images', deviceType] as const,
  releaseNotes: (releaseId: number) =>
    [...queryRoots.deviceTypes, 'host-os', 'notes', releaseId] as const,
};
