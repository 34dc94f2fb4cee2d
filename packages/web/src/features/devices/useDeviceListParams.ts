import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import { type SortColumn, sortableColumns } from '../../device/api.js';

export const pageSizes = [25, 50, 100] as const;
const defaultPageSize = 50;

export type DeviceListParams = {
  search: string;
  status: string;
  // Tag filter: "key" or "key=value".
  tag: string;
  // Tag keys shown as columns, comma-separated.
  tagColumns: string;
  view: 'table' | 'map';
  sort: SortColumn;
  direction: 'asc' | 'desc';
  // Zero-based here, one-based in the URL.
  page: number;
  pageSize: number;
};

const isSortColumn = (value: string | null): value is SortColumn =>
  (sortableColumns as readonly (string | null)[]).includes(value);

// Reads the table's state from a query string; anything unknown falls back to the default.
export const parseListParams = (params: URLSearchParams): DeviceListParams => {
  const status = params.get('status') ?? '';
  const sort = params.get('sort');
  const page = Number(params.get('page') ?? '1');
  const pageSize = Number(params.get('size') ?? defaultPageSize);
  return {
    search: params.get('search') ?? '',
    tag: params.get('tag') ?? '',
    tagColumns: params.get('tagcols') ?? '',
    view: params.get('view') === 'map' ? 'map' : 'table',
    status: (deviceStatuses as readonly string[]).includes(status) ? status : '',
    sort: isSortColumn(sort) ? sort : 'device_name',
    direction: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: Number.isSafeInteger(page) && page > 1 ? page - 1 : 0,
    pageSize: (pageSizes as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
  };
};

const urlKeys: Record<keyof DeviceListParams, string> = {
  search: 'search',
  status: 'status',
  tag: 'tag',
  tagColumns: 'tagcols',
  view: 'view',
  sort: 'sort',
  direction: 'dir',
  page: 'page',
  pageSize: 'size',
};

const defaults: DeviceListParams = {
  search: '',
  status: '',
  tag: '',
  tagColumns: '',
  view: 'table',
  sort: 'device_name',
  direction: 'asc',
  page: 0,
  pageSize: defaultPageSize,
};

// What a saved view of the table keeps: its filters, sort, tag columns and page size (not the
// page, nor whether the map is shown).
const viewKeys = [
  'search',
  'status',
  'tag',
  'tagColumns',
  'sort',
  'direction',
  'pageSize',
] as const;

export const viewStateOf = (params: DeviceListParams): Record<string, string | number> =>
  Object.fromEntries(viewKeys.map((key) => [urlKeys[key], params[key]]));

// A saved view's settings, read as the URL is (anything unknown falls back to the default).
export const paramsOfView = (state: Record<string, string | number>): Partial<DeviceListParams> => {
  const { search, status, tag, tagColumns, sort, direction, pageSize } = parseListParams(
    new URLSearchParams(Object.entries(state).map(([key, value]) => [key, String(value)])),
  );
  return { search, status, tag, tagColumns, sort, direction, pageSize };
};

// The search, the status filter, the sort and the page live in the URL, so they survive reloads
// and the breadcrumbs lead back to the same view. Any change but the page goes back to page 1.
export const tagColumnsOf = (params: DeviceListParams): string[] =>
  params.tagColumns === '' ? [] : params.tagColumns.split(',');

export const useDeviceListParams = (): [
  DeviceListParams,
  (changes: Partial<DeviceListParams>) => void,
] => {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseListParams(searchParams), [searchParams]);
  const update = useCallback(
    (changes: Partial<DeviceListParams>) => {
      setSearchParams(
        (previous) => {
          const next = { ...parseListParams(previous), page: 0, ...changes };
          const query = new URLSearchParams();
          for (const key of Object.keys(urlKeys) as (keyof DeviceListParams)[]) {
            const value = key === 'page' ? next.page + 1 : next[key];
            const fallback = key === 'page' ? 1 : defaults[key];
            if (value !== fallback) query.set(urlKeys[key], String(value));
          }
          return query;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  return [params, update];
};
