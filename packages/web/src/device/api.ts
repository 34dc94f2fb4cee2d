import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { PineFilter, PineOptions } from '@flotilla/sdk/pine';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.js';
import { polling, type PollingOptions } from '../ui/polling.js';
import type { DeviceDetail, DeviceListRow } from './device-rows.js';
import { deviceKeys } from './query-keys.js';

// Local mode is not a device field: the supervisor reads it from these config variables.
export const localModeVariables = [
  'RESIN_SUPERVISOR_LOCAL_MODE',
  'BALENA_SUPERVISOR_LOCAL_MODE',
] as const;

const releaseSelect = { $select: ['id', 'commit', 'raw_version'] } as const;

// The fields the table and the device page both show.
const deviceFields = [
  'id',
  'uuid',
  'device_name',
  'overall_status',
  'overall_progress',
  'api_heartbeat_state',
  'is_online',
  'is_connected_to_vpn',
  'is_frozen',
  'is_active',
  'is_web_accessible',
  'is_accessible_by_support_until__date',
  'os_version',
  'os_variant',
  'supervisor_version',
  'ip_address',
  'last_connectivity_event',
  'provisioning_state',
  'provisioning_progress',
  'agent_profile',
] as const;

const hostReleaseSelect = { $select: ['id', 'raw_version', 'phase'] } as const;

const listExpand = {
  is_of__device_type: {
    $select: ['id', 'slug', 'name'],
    $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
  },
  is_running__release: releaseSelect,
  should_be_operated_by__release: hostReleaseSelect,
  should_be_managed_by__release: hostReleaseSelect,
  device_tag: { $select: ['id', 'tag_key', 'value'], $orderby: { tag_key: 'asc' } },
  device_config_variable: {
    $select: ['name', 'value'],
    $filter: { name: { $in: [...localModeVariables] } },
  },
} as const satisfies PineOptions<'device'>['$expand'];

// Columns the table sorts on the server (computed fields sort like the others).
export const sortableColumns = [
  'device_name',
  'overall_status',
  'os_version',
  'supervisor_version',
  'last_connectivity_event',
  'ip_address',
] as const;
export type SortColumn = (typeof sortableColumns)[number];

export type DeviceListQuery = {
  fleetId: number;
  search: string;
  status: string;
  // "key" (has the tag) or "key=value".
  tag: string;
  sort: SortColumn;
  direction: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

// The tag filter's text taken apart: the key, and the value when one is given.
export const parseTagFilter = (text: string): { key: string; value?: string } | null => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const at = trimmed.indexOf('=');
  if (at < 0) return { key: trimmed };
  return { key: trimmed.slice(0, at).trim(), value: trimmed.slice(at + 1).trim() };
};

// Name contains the text (any case), or the uuid starts with it (uuids are lower-case hex); the
// device has the tag (with the value, when given).
export const deviceFilter = (
  query: Pick<DeviceListQuery, 'fleetId' | 'search' | 'status' | 'tag'>,
): PineFilter<'device'> => {
  const search = query.search.trim().toLowerCase();
  const tag = parseTagFilter(query.tag);
  return {
    ...(tag
      ? {
          device_tag: {
            $any: {
              $alias: 'dt',
              $expr: {
                dt: { tag_key: tag.key, ...(tag.value === undefined ? {} : { value: tag.value }) },
              },
            },
          },
        }
      : {}),
    belongs_to__application: query.fleetId,
    ...(search === ''
      ? {}
      : {
          $or: [
            { $contains: [{ $tolower: { $: 'device_name' } }, search] },
            { $startswith: [{ $: 'uuid' }, search] },
          ],
        }),
    ...(query.status === '' ? {} : { overall_status: query.status }),
  };
};

export type DevicePage = { rows: DeviceListRow[]; total: number };

// The tag keys used in the fleet (the choices of the tag columns).
export const fetchFleetTagKeys = async (
  client: FlotillaClient,
  fleetId: number,
): Promise<string[]> => {
  const rows = await client.pine.get({
    resource: 'device_tag',
    options: {
      $select: ['tag_key'],
      $filter: {
        device: { $any: { $alias: 'd', $expr: { d: { belongs_to__application: fleetId } } } },
      },
      $orderby: { tag_key: 'asc' },
    },
  });
  return [...new Set(rows.map((row) => row.tag_key))];
};

// One page of the fleet's devices and the total that matches, from a separate count query.
export const fetchDevicePage = async (
  client: FlotillaClient,
  query: DeviceListQuery,
): Promise<DevicePage> => {
  const $filter = deviceFilter(query);
  const [rows, total] = await Promise.all([
    client.pine.get({
      resource: 'device',
      options: {
        $select: [...deviceFields, 'is_pinned_on__release', 'belongs_to__application'],
        $expand: listExpand,
        $filter,
        // The id breaks ties so that pages never overlap.
        $orderby: [{ [query.sort]: query.direction }, { id: 'asc' }],
        $top: query.pageSize,
        $skip: query.page * query.pageSize,
      },
    }),
    client.pine.get({ resource: 'device', options: { $count: { $filter } } }),
  ]);
  return { rows, total };
};

// The device with everything the device page shows, or null when it does not exist (or is not
// visible to the user).
export const fetchDevice = async (
  client: FlotillaClient,
  uuid: string,
): Promise<DeviceDetail | null> => {
  // A short uuid (its first 7 characters or more, as the CLI shows them) names the device that
  // starts with it; two such devices make it ambiguous.
  const short = isShortUuid(uuid);
  const rows: DeviceDetail[] = await client.pine.get({
    resource: 'device',
    options: {
      $filter: short ? { $startswith: [{ $: 'uuid' }, uuid] } : { uuid },
      $top: short ? 2 : 1,
      $select: [
        ...deviceFields,
        'note',
        'is_undervolted',
        'public_address',
        'mac_address',
        'last_vpn_event',
        'changed_api_heartbeat_state_on__date',
        'update_status',
        'last_update_status_event',
        'latitude',
        'longitude',
        'custom_latitude',
        'custom_longitude',
        'location',
        'cpu_usage',
        'cpu_temp',
        'memory_usage',
        'memory_total',
        'storage_usage',
        'storage_total',
        'created_at',
      ],
      $expand: {
        ...listExpand,
        is_of__device_type: {
          $select: ['id', 'slug', 'name', 'contract'],
          $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
        },
        belongs_to__application: {
          $select: ['id', 'app_name', 'slug', 'is_of__class'],
          $expand: { organization: { $select: ['id', 'name'] } },
        },
        is_pinned_on__release: releaseSelect,
        should_be_running__release: releaseSelect,
        image_install: {
          $select: ['id', 'status', 'download_progress', 'install_date'],
          $expand: {
            installs__image: {
              $select: ['id'],
              $expand: { is_a_build_of__service: { $select: ['id', 'service_name'] } },
            },
            is_provided_by__release: releaseSelect,
          },
        },
      },
    },
  });
  if (rows.length > 1) throw new Error(`Device is ambiguous: ${uuid}`);
  return rows[0] ?? null;
};

const isShortUuid = (uuid: string): boolean =>
  uuid.length !== 32 && uuid.length !== 62 && /^[0-9a-f]{7,61}$/.test(uuid);

// The device page's query, shared by the page and the device's variables and configuration tabs,
// so switching tabs reads the cache.
export const deviceQuery = (client: FlotillaClient, uuid: string) =>
  queryOptions({ queryKey: deviceKeys.detail(uuid), queryFn: () => fetchDevice(client, uuid) });

// The device page polls at the fleet lists' pace, the tabs at the default one.
export const useDeviceDetail = (uuid: string, pollingOptions: PollingOptions = polling()) => {
  const client = useClient();
  return useQuery({ ...deviceQuery(client, uuid), ...pollingOptions });
};
