import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useClient } from '../../../api/client.js';
import { useSession } from '../../../api/session/useSession.js';
import { type BatchFleet, batchFleetsOf, fetchBatchRows } from './batch-queries.js';

export type BatchFleetsState = {
  fleets: BatchFleet[] | undefined;
  isPending: boolean;
  error: Error | null;
};

// The selected applications with the user's roles on each. Keyed under ['applications'] so the
// refresh after every fleet write reloads it too.
export const useBatchFleets = (ids: readonly number[]): BatchFleetsState => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const sorted = useMemo(() => [...ids].sort((a, b) => a - b), [ids]);
  const rows = useQuery({
    queryKey: ['applications', 'batch', userId, sorted],
    enabled: userId > 0 && sorted.length > 0,
    staleTime: 30_000,
    // Adding a fleet to the selection keeps the gates of the previous answer until the new one.
    placeholderData: (previous) => previous,
    queryFn: () => fetchBatchRows(client, sorted, userId),
  });
  const permissions = session?.permissions;
  const fleets = useMemo(
    () =>
      rows.data
        ? batchFleetsOf(rows.data, permissions ?? []).filter((fleet) => sorted.includes(fleet.id))
        : undefined,
    [rows.data, permissions, sorted],
  );
  // A previous answer may lack a newly selected fleet: still checking until the new one.
  const lacksSome =
    rows.isPlaceholderData && sorted.some((id) => !fleets?.some((fleet) => fleet.id === id));
  return { fleets, isPending: rows.isPending || lacksSome, error: rows.error };
};
