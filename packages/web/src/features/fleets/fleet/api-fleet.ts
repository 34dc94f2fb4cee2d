import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../../api/client.js';
import { type FleetDetail, fetchFleet } from '../../../fleet/api-fleet-detail.js';
import { fleetKeys } from '../../../fleet/query-keys.js';
import { useLeaveFleet } from '../../../fleet/leave-fleet.js';
import { polling } from '../../../ui/polling.js';

// The open fleet, polled at the default rate. `data` is undefined while loading and null when
// the fleet does not exist or is not visible to the user.
export const useFleet = (id: number | null) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: async () => (await fetchFleet(client, id ?? 0)) ?? null,
    ...polling(),
  });
};

export type FleetPatch = {
  app_name?: string;
  should_track_latest_release?: boolean;
  should_be_running__release?: number | null;
  is_stored_at__repository_url?: string | null;
  is_public?: boolean;
  is_accessible_by_support_until__date?: string | null;
  application_type?: number;
  is_for__device_type?: number;
  organization?: number;
};

// PATCH the fleet, then refresh every fleet query (list, cards, title).
export const useUpdateFleet = (id: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async (body: FleetPatch) => {
      await client.pine.patch({ resource: 'application', id, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fleetKeys.all }),
  });
};

// Deletes the fleet (and its devices and releases), then leaves it.
export const useDeleteFleet = (fleet: FleetDetail) => {
  const client = useClient();
  const leave = useLeaveFleet(fleet);
  return useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async () => {
      await client.pine.delete({ resource: 'application', id: fleet.id });
    },
    onSuccess: leave,
  });
};
