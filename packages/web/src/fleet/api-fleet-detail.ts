import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { PineFilter } from '@flotilla/sdk/pine';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { type DeviceStatus, deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import { noDevices } from './api-fleet-list.js';
import { recentReleaseCount } from './fleet-limits.js';

export type ApplicationType = {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  is_legacy: boolean;
  requires_payment: boolean;
  supports_multicontainer: boolean;
};

export type ReleaseSummary = {
  id: number;
  commit: string;
  raw_version: string | null;
  status: string;
  created_at: string;
};

export type FleetDetail = {
  id: number;
  app_name: string;
  slug: string;
  is_of__class: ApplicationClass;
  created_at: string;
  is_host: boolean;
  is_public: boolean;
  should_track_latest_release: boolean;
  is_stored_at__repository_url: string | null;
  is_accessible_by_support_until__date: string | null;
  organization: { id: number; name: string; handle: string }[];
  is_for__device_type: {
    id: number;
    slug: string;
    name: string;
    is_of__cpu_architecture: { id: number; slug: string }[];
  }[];
  application_type: ApplicationType[];
  should_be_running__release: ReleaseSummary[];
  owns__device: number;
};

export const applicationTypeSelect = [
  'id',
  'slug',
  'name',
  'description',
  'is_legacy',
  'requires_payment',
  'supports_multicontainer',
] as const;

const releaseSelect = ['id', 'commit', 'raw_version', 'status', 'created_at'] as const;

// The fleet, or undefined when it does not exist or the user cannot see it.
export const fetchFleet = async (
  client: FlotillaClient,
  id: number,
): Promise<FleetDetail | undefined> =>
  await client.pine.get({
    resource: 'application',
    id,
    options: {
      $select: [
        'id',
        'app_name',
        'slug',
        'is_of__class',
        'created_at',
        'is_host',
        'is_public',
        'should_track_latest_release',
        'is_stored_at__repository_url',
        'is_accessible_by_support_until__date',
      ],
      $expand: {
        organization: { $select: ['id', 'name', 'handle'] },
        is_for__device_type: {
          $select: ['id', 'slug', 'name'],
          $expand: { is_of__cpu_architecture: { $select: ['id', 'slug'] } },
        },
        application_type: { $select: [...applicationTypeSelect] },
        should_be_running__release: { $select: [...releaseSelect] },
        owns__device: { $count: {} },
      },
    },
  });

const releaseCount = async (
  client: FlotillaClient,
  id: number,
  $filter: PineFilter<'release'>,
): Promise<number> => {
  const row = await client.pine.get({
    resource: 'application',
    id,
    options: { $select: ['id'], $expand: { owns__release: { $count: { $filter } } } },
  });
  return row?.owns__release ?? 0;
};

// One small count query per status, as the fleet list does, the seven sent as one batch of
// reads (one request).
export const fetchDeviceStatusCounts = async (
  client: FlotillaClient,
  id: number,
): Promise<Record<DeviceStatus, number>> => {
  const perStatus = await client.pine.getBatch(
    deviceStatuses.map((status) => ({
      resource: 'application' as const,
      options: {
        $select: ['id' as const],
        $filter: { id },
        $expand: { owns__device: { $count: { $filter: { overall_status: status } } } },
      },
    })),
  );
  const counts = noDevices();
  for (const [index, rows] of perStatus.entries()) {
    const status = deviceStatuses[index];
    if (status !== undefined) counts[status] = rows[0]?.owns__device ?? 0;
  }
  return counts;
};

export type ReleasesOverview = {
  recent: ReleaseSummary[];
  successCount: number;
  runningCount: number;
};

// The newest releases plus the success and running counts of the releases card.
export const fetchReleasesOverview = async (
  client: FlotillaClient,
  id: number,
): Promise<ReleasesOverview> => {
  const [recent, successCount, runningCount] = await Promise.all([
    client.pine.get({
      resource: 'release',
      options: {
        $select: [...releaseSelect],
        $filter: { belongs_to__application: id },
        $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
        $top: recentReleaseCount,
      },
    }),
    releaseCount(client, id, { status: 'success' }),
    releaseCount(client, id, { status: 'running' }),
  ]);
  return { recent, successCount, runningCount };
};

export const shortCommit = (commit: string): string => commit.slice(0, 7);

export const releaseLabel = (release: Pick<ReleaseSummary, 'commit' | 'raw_version'>): string =>
  release.raw_version ?? shortCommit(release.commit);
