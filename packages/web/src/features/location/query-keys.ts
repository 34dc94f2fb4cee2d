import { queryRoots } from '../../api/query-roots.js';

// The map's devices live under the devices root (with the fleet's other device queries), so a
// device action refreshes the map too; the tile URL comes with the console configuration.
export const locationKeys = {
  devices: queryRoots.devices,
  fleetMap: (fleetId: number, filterKey: string) =>
    [...queryRoots.devices, 'fleet', fleetId, 'map', filterKey] as const,
  config: queryRoots.config,
};
