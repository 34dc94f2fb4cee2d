import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { releasePickerPageSize, releasePickerRefreshMs } from './release-limits.js';
import { nextPickerPage, pickerFilter, pickerSelect } from './release-picker-search.js';
import { releaseKeys } from './query-keys.js';

// One page (0-based) of the picker's releases.
const fetchPickerPage = async (
  client: FlotillaClient,
  fleetId: number,
  search: string,
  page: number,
) =>
  await client.pine.get({
    resource: 'release',
    options: {
      $select: [...pickerSelect],
      $filter: pickerFilter(fleetId, search),
      $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
      $top: releasePickerPageSize,
      $skip: page * releasePickerPageSize,
    },
  });

export type PickerRelease = Awaited<ReturnType<typeof fetchPickerPage>>[number];

// The picker's releases for the search, page by page. Nothing is read until the list opens; then
// it refetches every 15 s while it stays open (a disabled query does not poll).
export const usePickerReleases = (fleetId: number, search: string, open: boolean) => {
  const client = useClient();
  return useInfiniteQuery({
    queryKey: releaseKeys.picker(fleetId, search),
    queryFn: ({ pageParam }) => fetchPickerPage(client, fleetId, search, pageParam),
    initialPageParam: 0,
    getNextPageParam: nextPickerPage,
    enabled: open,
    ...polling(releasePickerRefreshMs),
    placeholderData: keepPreviousData,
  });
};
