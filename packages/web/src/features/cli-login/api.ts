import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { configKeys } from '../../api/config/query-keys.js';

// The operator's networks a CLI login may post to (GET /config's cliLoginAllowedNetworks).
export const useCliLoginConfig = () => {
  const client = useClient();
  return useQuery({ queryKey: configKeys.public, queryFn: () => client.config() });
};
