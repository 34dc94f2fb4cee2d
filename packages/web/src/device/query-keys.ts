import { queryRoots } from '../api/query-roots.js';

// Every device query lives under the devices root, so one invalidation after an action refreshes
// the table and the device page alike.
export const deviceKeys = {
  all: queryRoots.devices,
  fleet: (fleetId: number) => [...queryRoots.devices, 'fleet', fleetId] as const,
  detail: (uuid: string) => [...queryRoots.devices, 'detail', uuid] as const,
};
