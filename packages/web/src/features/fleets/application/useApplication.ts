import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../../app/client.js';
import { polling } from '../../../ui/polling.js';
import { applicationKey, fetchApplication } from './application-detail.js';

// The open application, polled at the default rate. `data` is undefined while loading and null
// when the application does not exist or is not visible to the user.
export const useApplication = (id: number | null) => {
  const client = useClient();
  return useQuery({
    queryKey: applicationKey(id ?? 0),
    enabled: id !== null,
    queryFn: async () => (await fetchApplication(client, id ?? 0)) ?? null,
    ...polling(),
  });
};
