import {
  type AgentProfile,
  readAgentProfile,
} from '@flotilla/shared/device-protocol/agent-profile-rules';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { variableKeys } from './query-keys.js';

// How many devices' profiles the fleet's configuration page reads; past that it marks nothing
// (it cannot tell that no device uses a setting).
export const agentProfileSample = 1000;

// The agent profiles the fleet's devices reported (null for a device that sent none), or null
// when the fleet has more devices than are read.
export const useFleetAgentProfiles = (fleetId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: variableKeys.fleetAgentProfiles(fleetId),
    enabled,
    staleTime: 60_000,
    queryFn: async (): Promise<(AgentProfile | null)[] | null> => {
      const devices = await client.pine.get({
        resource: 'device',
        options: {
          $select: ['id', 'agent_profile'],
          $filter: { belongs_to__application: fleetId },
          $orderby: { id: 'asc' },
          $top: agentProfileSample + 1,
        },
      });
      if (devices.length > agentProfileSample) return null;
      return devices.map((device) => readAgentProfile(device.agent_profile));
    },
  });
};
