import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useClient } from '../client.js';
import { configKeys } from './query-keys.js';

// The server's public configuration (GET /config): it changes only with the server.
export const publicConfigQuery = (client: FlotillaClient) =>
  queryOptions({
    queryKey: configKeys.public,
    queryFn: () => client.config(),
    staleTime: Infinity,
  });

export const usePublicConfig = () => {
  const client = useClient();
  return useQuery(publicConfigQuery(client));
};
