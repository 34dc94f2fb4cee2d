import type { PublicConfig } from '@flotilla/sdk/config';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { configKeys } from '../../api/config/query-keys.js';

// Whether this server builds the images of services with a `build:` step, and why not (GET
// /config's builder); undefined while unknown (loading, or an older server). Read only while
// `wanted` (the Create release dialog open).
export const useImageBuilds = (wanted: boolean): PublicConfig['builder'] => {
  const client = useClient();
  const config = useQuery({
    queryKey: configKeys.public,
    queryFn: () => client.config(),
    staleTime: Infinity,
    enabled: wanted,
  });
  return config.data?.builder;
};
