import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { PineFilter } from '@flotilla/sdk/pine';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { releaseListPageSize, releaseListRefreshMs } from './release-limits.js';
import { releaseKeys } from './query-keys.js';

// Reads of the release pages: a fleet's releases page by page, one release with what its page
// shows, and its assets.

const listSelect = [
  'id',
  'commit',
  'raw_version',
  'status',
  'created_at',
  'start_timestamp',
  'update_timestamp',
  'is_final',
  'is_invalidated',
] as const;

// Search by version, or by a tag's key or value.
const searchFilter = (search: string): PineFilter<'release'> => ({
  $or: [
    { $contains: [{ $tolower: { $: 'raw_version' } }, search.toLowerCase()] },
    {
      release_tag: {
        $any: {
          $alias: 't',
          $expr: {
            $or: [
              { $contains: [{ $tolower: { $: ['t', 'tag_key'] } }, search.toLowerCase()] },
              { $contains: [{ $tolower: { $: ['t', 'value'] } }, search.toLowerCase()] },
            ],
          },
        },
      },
    },
  ],
});

const listFilter = (fleetId: number, search: string): PineFilter<'release'> =>
  search === ''
    ? { belongs_to__application: fleetId }
    : { $and: [{ belongs_to__application: fleetId }, searchFilter(search)] };

// One page of a fleet's releases, newest first, with the number of releases matching.
const fetchReleasePage = async (
  client: FlotillaClient,
  fleetId: number,
  page: number,
  pageSize: number,
  search: string,
) => {
  const [rows, total] = await Promise.all([
    client.pine.get({
      resource: 'release',
      options: {
        $select: [...listSelect],
        $filter: listFilter(fleetId, search),
        $expand: {
          is_created_by__user: { $select: ['id', 'username'] },
          is_running_on__device: { $count: {} },
        },
        $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
        $top: pageSize,
        $skip: page * pageSize,
      },
    }),
    client.pine.get({
      resource: 'application',
      id: fleetId,
      options: {
        $select: ['id'],
        $expand: { owns__release: { $count: { $filter: listFilter(fleetId, search) } } },
      },
    }),
  ]);
  return { rows, total: total?.owns__release ?? 0 };
};

export type ReleaseListRow = Awaited<ReturnType<typeof fetchReleasePage>>['rows'][number];

// One release with what its page shows; undefined when it does not exist, is not readable, or
// belongs to another fleet.
const fetchRelease = async (client: FlotillaClient, fleetId: number, releaseId: number) => {
  const [release] = await client.pine.get({
    resource: 'release',
    options: {
      $select: [
        ...listSelect,
        'end_timestamp',
        'semver',
        'note',
        'known_issue_list',
        'composition',
        'source',
        'build_log',
      ],
      $filter: { id: releaseId, belongs_to__application: fleetId },
      $expand: {
        is_created_by__user: { $select: ['id', 'username'] },
        release_tag: { $select: ['id', 'tag_key', 'value'], $orderby: { tag_key: 'asc' } },
        release_image: {
          $select: ['id'],
          $expand: {
            image: {
              $select: ['id', 'status', 'image_size', 'error_message', 'dockerfile', 'build_log'],
              $expand: { is_a_build_of__service: { $select: ['id', 'service_name'] } },
            },
          },
        },
        is_running_on__device: { $count: {} },
        is_pinned_to__device: { $count: {} },
        should_be_running_on__application: { $select: ['id'] },
      },
    },
  });
  return release;
};

// The release's assets, as balena-sdk's release.asset.getAllByRelease reads them.
const fetchReleaseAssets = async (client: FlotillaClient, releaseId: number) => {
  const release = await client.pine.get({
    resource: 'release',
    id: releaseId,
    options: {
      $select: ['id'],
      $expand: {
        release_asset: { $select: ['id', 'asset_key', 'asset'], $orderby: { id: 'asc' } },
      },
    },
  });
  return release?.release_asset ?? [];
};

export type ReleaseDetail = NonNullable<Awaited<ReturnType<typeof fetchRelease>>>;

// One page of the fleet's releases, refreshed every 6 s; the previous page stays on screen while
// the next one loads.
export const useReleasePage = (fleetId: number, page: number, search: string) => {
  const client = useClient();
  return useQuery({
    queryKey: releaseKeys.list(fleetId, page, search),
    queryFn: () => fetchReleasePage(client, fleetId, page, releaseListPageSize, search),
    placeholderData: keepPreviousData,
    ...polling(releaseListRefreshMs),
  });
};

// The release (null when missing), refreshed like the list; nothing is read for an invalid id.
export const useRelease = (fleetId: number, releaseId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: releaseKeys.detail(fleetId, releaseId),
    queryFn: async () => (await fetchRelease(client, fleetId, releaseId)) ?? null,
    enabled,
    ...polling(releaseListRefreshMs),
  });
};

// The release's assets; a failure shows in the assets section.
export const useReleaseAssets = (fleetId: number, releaseId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: releaseKeys.assets(fleetId, releaseId),
    queryFn: () => fetchReleaseAssets(client, releaseId),
    meta: { inlineError: true },
  });
};
