import { queryRoots } from '../../api/query-roots.js';
import type { DeviceListParams } from './useDeviceListParams.js';

// Every device query lives under the devices root, so one invalidation after an action refreshes
// the table, the map and the device page alike. The move targets are fleets the user sees, so they
// live under the fleets root and refresh with every fleet write.
export const devicesKeys = {
  all: queryRoots.devices,
  fleets: queryRoots.fleets,
  page: (fleetId: number, params: DeviceListParams) =>
    [...queryRoots.devices, 'fleet', fleetId, params] as const,
  tagKeys: (fleetId: number) => [...queryRoots.devices, 'fleet', fleetId, 'tag-keys'] as const,
  detail: (uuid: string) => [...queryRoots.devices, 'detail', uuid] as const,
  moveTargets: (userId: number, deviceTypes: readonly string[]) =>
    [...queryRoots.fleets, 'move-targets', userId, deviceTypes] as const,
  deviceTypesWithArchitecture: () => [...queryRoots.deviceTypes, 'with-architecture'] as const,
  config: queryRoots.config,
};
