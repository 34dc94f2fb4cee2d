import type { PublicConfig } from '@flotilla/sdk/config';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../app/client.js';

// Whether this server builds the images of services with a `build:` step, and why not (GET
// /config's builder); undefined while unknown (loading, or an older server).
export const useImageBuilds = (): PublicConfig['builder'] => {
  const client = useClient();
  const config = useQuery({
    queryKey: ['public-config'],
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
  return config.data?.builder;
};
