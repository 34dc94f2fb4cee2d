import { queryRoots } from '../query-roots.js';

type QueryKey = readonly unknown[];

// The part of an event's envelope the console reads (it trusts its own server: no schema here,
// which would put zod in this lazily loaded chunk).
export type StreamedEnvelope = { type: string; fleet: number | null };

// What an event makes stale, by the query roots and the fleet keys' shape (fleet/query-keys.ts):
// a device's status refreshes the device list and page, its fleet's summary and the fleet lists'
// counts; a release, variable or alert its own screens.
export const keysOfEvent = (envelope: StreamedEnvelope): QueryKey[] => {
  const fleetDetail: QueryKey[] =
    envelope.fleet === null ? [] : [[...queryRoots.fleets, 'detail', envelope.fleet]];
  const [group] = envelope.type.split('.');
  switch (group) {
    case 'device':
      return [queryRoots.devices, ...fleetDetail, [...queryRoots.fleets, 'list']];
    case 'release':
      return [queryRoots.releases, ...fleetDetail];
    case 'variable':
      return [queryRoots.variables];
    case 'alert':
      return [queryRoots.alerts];
    default:
      return [];
  }
};

// What a stream that missed events (a reset, or a drop) refreshes: everything events keep fresh.
export const streamedRoots: QueryKey[] = [
  queryRoots.devices,
  queryRoots.fleets,
  queryRoots.releases,
  queryRoots.variables,
  queryRoots.alerts,
];
