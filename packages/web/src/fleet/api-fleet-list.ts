import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { type DeviceStatus, deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import { queryOptions } from '@tanstack/react-query';
import { fleetListPolling } from '../ui/polling.js';
import { fleetKeys } from './query-keys.js';

export type FleetListItem = {
  id: number;
  app_name: string;
  slug: string;
  is_of__class: ApplicationClass;
  created_at: string;
  should_track_latest_release: boolean;
  organization: { id: number; name: string; handle: string }[];
  is_for__device_type: { slug: string; name: string }[];
  should_be_running__release: { id: number; commit: string; raw_version: string | null }[];
  owns__device: number;
};

const accessible = { $any: { $alias: 'dau', $expr: { 1: 1 } } };

// The fleets of one class the user can access (optionally in one organization).
export const fetchFleets = async (
  client: FlotillaClient,
  className: ApplicationClass,
  organizationId?: number,
): Promise<FleetListItem[]> =>
  await client.pine.get({
    resource: 'application',
    options: {
      $select: [
        'id',
        'app_name',
        'slug',
        'is_of__class',
        'created_at',
        'should_track_latest_release',
      ],
      $filter: {
        is_of__class: className,
        is_directly_accessible_by__user: accessible,
        ...(organizationId === undefined ? {} : { organization: organizationId }),
      },
      $expand: {
        organization: { $select: ['id', 'name', 'handle'] },
        is_for__device_type: { $select: ['slug', 'name'] },
        should_be_running__release: { $select: ['id', 'commit', 'raw_version'] },
        owns__device: { $count: {} },
      },
      $orderby: { app_name: 'asc' },
    },
  });

// Every status at zero.
export const noDevices = (): Record<DeviceStatus, number> => ({
  operational: 0,
  updating: 0,
  configuring: 0,
  'post-provisioning': 0,
  'reduced-functionality': 0,
  disconnected: 0,
  inactive: 0,
});

// Devices per status for every listed fleet: one count per status for the whole list
// (not per card), the seven sent as one batch of reads, so the page costs one request however
// many fleets it shows.
export const fetchStatusCounts = async (
  client: FlotillaClient,
  className: ApplicationClass,
  organizationId?: number,
): Promise<Map<number, Record<DeviceStatus, number>>> => {
  const perStatus = await client.pine.getBatch(
    deviceStatuses.map((status) => ({
      resource: 'application' as const,
      options: {
        $select: ['id' as const],
        $filter: {
          is_of__class: className,
          is_directly_accessible_by__user: accessible,
          ...(organizationId === undefined ? {} : { organization: organizationId }),
        },
        $expand: { owns__device: { $count: { $filter: { overall_status: status } } } },
      },
    })),
  );
  const counts = new Map<number, Record<DeviceStatus, number>>();
  for (const [index, rows] of perStatus.entries()) {
    const status = deviceStatuses[index];
    if (status === undefined) continue;
    for (const row of rows) {
      const entry = counts.get(row.id) ?? noDevices();
      entry[status] = row.owns__device;
      counts.set(row.id, entry);
    }
  }
  return counts;
};

// /orgs/:organizationId/fleets (and apps, blocks) list one organization's fleets.
export const organizationIdParam = (value: string | undefined): number | undefined =>
  value && /^\d+$/.test(value) ? Number(value) : undefined;

// The list screen's two queries, shared by the screen and the route's loader (router.tsx), which
// starts them while the screen's code is still loading.
export const fleetListQuery = (
  client: FlotillaClient,
  className: ApplicationClass,
  organizationId: number | undefined,
) =>
  queryOptions({
    queryKey: fleetKeys.list(className, organizationId),
    queryFn: () => fetchFleets(client, className, organizationId),
    staleTime: fleetListPolling().staleTime,
  });

export const fleetStatusCountsQuery = (
  client: FlotillaClient,
  className: ApplicationClass,
  organizationId: number | undefined,
) =>
  queryOptions({
    queryKey: fleetKeys.statusCounts(className, organizationId),
    queryFn: () => fetchStatusCounts(client, className, organizationId),
    staleTime: fleetListPolling().staleTime,
  });
