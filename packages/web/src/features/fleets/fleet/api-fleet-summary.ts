import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../../api/client.js';
import { fetchDeviceStatusCounts, fetchReleasesOverview } from '../../../fleet/api-fleet-detail.js';
import { releaseCardRefreshMs } from '../../../fleet/fleet-limits.js';
import { polling, streamedPolling } from '../../../ui/polling.js';
import { fleetsFeatureKeys } from '../query-keys.js';

// The fleet's devices per overall status, polled at the default rate (rarely while the event
// stream announces status changes).
export const useFleetStatusCounts = (fleetId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.statusCounts(fleetId),
    queryFn: () => fetchDeviceStatusCounts(client, fleetId),
    ...streamedPolling(),
  });
};

// The releases card's newest releases and counts, polled at the card's own rate.
export const useReleasesOverview = (fleetId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.releasesOverview(fleetId),
    queryFn: () => fetchReleasesOverview(client, fleetId),
    ...polling(releaseCardRefreshMs),
  });
};
