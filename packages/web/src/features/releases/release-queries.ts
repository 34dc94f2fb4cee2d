import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { PineFilter } from '@flotilla/sdk/pine';
import { fleetKeys } from '../../fleet/query-keys.js';

// Reads of the release pages (seed 001 section 7 "releases by application", "release with
// expansions"). Keys live under the fleet's key, so every fleet write refreshes them too.

export const releaseListKey = (fleetId: number, page: number, search: string) =>
  [...fleetKeys.detail(fleetId), 'releases', page, search] as const;

export const releaseKey = (fleetId: number, releaseId: number) =>
  [...fleetKeys.detail(fleetId), 'release', releaseId] as const;

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

// Search by version, or by a tag's key or value (seed 001 section 7).
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
export const fetchReleasePage = async (
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
export const fetchRelease = async (client: FlotillaClient, fleetId: number, releaseId: number) => {
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

export const releaseAssetsKey = (fleetId: number, releaseId: number) =>
  [...releaseKey(fleetId, releaseId), 'assets'] as const;

// The release's assets, as balena-sdk's release.asset.getAllByRelease reads them.
export const fetchReleaseAssets = async (client: FlotillaClient, releaseId: number) => {
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

// The release's services, each with its image, by service name.
export const releaseServices = (release: ReleaseDetail) =>
  release.release_image
    .flatMap((part) => part.image)
    .map((image) => ({
      name: image.is_a_build_of__service[0]?.service_name ?? `image ${image.id}`,
      image,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
