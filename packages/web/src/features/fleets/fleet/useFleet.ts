import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../../api/client.js';
import { polling } from '../../../ui/polling.js';
import { fetchFleet } from '../../../fleet/api-fleet-detail.js';
import { fleetKeys } from '../../../fleet/query-keys.js';

// The open application, polled at the default rate. `data` is undefined while loading and null
// when the application does not exist or is not visible to the user.
export const useFleet = (id: number | null) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: async () => (await fetchFleet(client, id ?? 0)) ?? null,
    ...polling(),
  });
};
