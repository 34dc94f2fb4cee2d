import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { bulkConcurrency } from '@flotilla/shared/constants/limits';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useClient } from '../../../api/client.js';
import { useSession } from '../../../api/session/useSession.js';
import { fleetKeys } from '../../../fleet/query-keys.js';
import { useToasts } from '../../../ui/toasts.js';
import { runWithConcurrency } from '../../../ui/run-with-concurrency.js';
import { fleetsFeatureKeys } from '../query-keys.js';
import { type BatchFleet, type BatchRows, batchFleetsOf } from './batch-fleets.js';
import { outcomeToast } from './batch-rules.js';

const roleOf = (role: readonly { name: string }[]): string => role[0]?.name ?? '';

// The selected fleets and every role row of the user on them: four requests for the whole
// selection (useFleetRole asks three per fleet, too many for a list).
export const fetchBatchRows = async (
  client: FlotillaClient,
  ids: readonly number[],
  userId: number,
): Promise<BatchRows> => {
  const inIds = { $in: [...ids] };
  const [fleets, memberships, teamAccesses, organizationMemberships] = await Promise.all([
    client.pine.get({
      resource: 'application',
      options: {
        $select: ['id', 'app_name', 'is_of__class'],
        $filter: { id: inIds },
        $expand: {
          organization: { $select: ['id'] },
          is_for__device_type: {
            $select: ['id', 'slug', 'name'],
            $expand: { is_of__cpu_architecture: { $select: ['id', 'slug'] } },
          },
          application_type: { $select: ['is_legacy'] },
        },
        $orderby: { app_name: 'asc' },
      },
    }),
    client.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['id', 'is_member_of__application'],
        $filter: { user: userId, is_member_of__application: inIds },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['id', 'grants_access_to__application'],
        $filter: {
          grants_access_to__application: inIds,
          team: {
            $any: {
              $alias: 't',
              $expr: {
                t: {
                  team_membership: { $any: { $alias: 'tm', $expr: { tm: { user: userId } } } },
                },
              },
            },
          },
        },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['id', 'is_member_of__organization'],
        $filter: { user: userId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
  ]);
  return {
    fleets,
    memberships: {
      fleetMemberships: memberships.map((row) => ({
        fleetId: row.is_member_of__application.__id,
        role: roleOf(row.application_membership_role),
      })),
      teamAccesses: teamAccesses.map((row) => ({
        fleetId: row.grants_access_to__application.__id,
        role: roleOf(row.application_membership_role),
      })),
      organizationMemberships: organizationMemberships.map((row) => ({
        organizationId: row.is_member_of__organization.__id,
        role: roleOf(row.organization_membership_role),
      })),
    },
  };
};

export type BatchFleetsState = {
  fleets: BatchFleet[] | undefined;
  isPending: boolean;
  error: Error | null;
};

// The selected fleets with the user's roles on each. Keyed under the fleets root so the refresh
// after every fleet write reloads it too.
export const useBatchFleets = (ids: readonly number[]): BatchFleetsState => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const sorted = useMemo(() => [...ids].sort((a, b) => a - b), [ids]);
  const rows = useQuery({
    queryKey: fleetsFeatureKeys.batch(userId, sorted),
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

export type BatchRun = {
  fleets: readonly BatchFleet[];
  run: (fleet: BatchFleet) => Promise<unknown>;
  texts: { done: string; failed: string; items: string };
};

// Runs one write per fleet, `bulkConcurrency` at a time, reports the outcome in one toast and
// refreshes every fleet query. Never throws: failures are part of the toast.
export const useBatchRun = (onDone: () => void) => {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({ fleets, run, texts }: BatchRun) => {
      const outcomes = await runWithConcurrency(fleets, bulkConcurrency, run);
      const toast = outcomeToast(outcomes, texts);
      toasts.show(toast.kind, toast.text);
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
    },
    onSettled: onDone,
  });
};

// The write each batch action runs on one fleet.
export const useBatchWrites = () => {
  const client = useClient();
  return useMemo(
    () => ({
      rename:
        (name: string) =>
        (fleet: BatchFleet): Promise<unknown> =>
          client.pine.patch({ resource: 'application', id: fleet.id, body: { app_name: name } }),
      setDeviceType:
        (deviceTypeId: number) =>
        (fleet: BatchFleet): Promise<unknown> =>
          client.pine.patch({
            resource: 'application',
            id: fleet.id,
            body: { is_for__device_type: deviceTypeId },
          }),
      remove: (fleet: BatchFleet): Promise<unknown> =>
        client.pine.delete({ resource: 'application', id: fleet.id }),
    }),
    [client],
  );
};
