import type { RolloutGates } from '@flotilla/shared/rollouts/rollout-plan';
import { activeRolloutStatuses, type RolloutStatus } from '@flotilla/shared/rollouts/rollout-types';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.js';
import { polling } from '../ui/polling.js';
import { fleetKeys } from './query-keys.js';

// A fleet's staged rollouts as GET /rollouts/v1/fleets/:fleet/rollouts lists them: the fleet
// summary shows the one in progress, features/rollouts the rest.
export type RolloutSummary = {
  id: number;
  application: number;
  from_release: number;
  target_release: number;
  status: RolloutStatus;
  gates: RolloutGates;
  current_wave: number;
  wave_count: number;
  halt_reason: string | null;
  rolled_back: boolean;
  created_at: string;
  finished_at: string | null;
};

export const useFleetRollouts = (fleetId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetKeys.rollouts(fleetId),
    queryFn: async () =>
      (
        await client.request<{ rollouts: RolloutSummary[] }>({
          path: `/rollouts/v1/fleets/${fleetId}/rollouts`,
        })
      ).rollouts,
    ...polling(),
  });
};

// The rollout in progress of a fleet, if any.
export const useActiveRollout = (fleetId: number): RolloutSummary | null =>
  useFleetRollouts(fleetId).data?.find((rollout) =>
    activeRolloutStatuses.includes(rollout.status),
  ) ?? null;
