import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { configVarsKey, fetchConfigVars } from './variable-queries.js';

// The naming rules and configuration schema of a device type: they change only with the
// server, so they are read once per session.
export const useConfigVars = (deviceType: string) => {
  const client = useClient();
  return useQuery({
    queryKey: configVarsKey(deviceType),
    queryFn: () => fetchConfigVars(client, deviceType),
    enabled: deviceType !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });
};
