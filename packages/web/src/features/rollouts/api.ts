import type { RolloutGates } from '@flotilla/shared/rollouts/rollout-plan';
import type {
  RolloutDeviceState,
  RolloutStatus,
  WaveSpec,
  WaveStatus,
} from '@flotilla/shared/rollouts/rollout-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryRoots } from '../../api/query-roots.js';
import { useClient } from '../../api/client.js';
import type { RolloutSummary } from '../../fleet/api-fleet-rollouts.js';
import { pollingWhile } from '../../ui/polling.js';
import { rolloutKeys } from './query-keys.js';

// The rollouts service (/rollouts/v1): a fleet's rollouts, one rollout live, and the decisions.

export type RolloutWave = {
  position: number;
  spec: WaveSpec;
  status: WaveStatus;
  started_at: string | null;
  finished_at: string | null;
  skip_reason: string | null;
  counts: Partial<Record<RolloutDeviceState, number>>;
};

export type RolloutDevice = {
  id: number;
  uuid: string;
  device_name: string;
  wave: number;
  state: RolloutDeviceState;
  reason: string | null;
  updated_at: string;
};

export type RolloutEvent = {
  id: number;
  at: string;
  kind: string;
  message: string;
  by: string | null;
};

export type RolloutDetail = RolloutSummary & {
  waves: RolloutWave[];
  devices: RolloutDevice[];
  events: RolloutEvent[];
};

export type PlanInput = { targetRelease: number; waves: WaveSpec[]; gates: Partial<RolloutGates> };
export type PlanPreview = { counts: number[]; devices: number };

const active = (status: RolloutStatus | undefined): boolean =>
  status === 'running' || status === 'paused' || status === 'halted';

// Polled every 5 s while the rollout is in progress.
export const useRollout = (rolloutId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: rolloutKeys.rollout(rolloutId),
    queryFn: () => client.request<RolloutDetail>({ path: `/rollouts/v1/rollouts/${rolloutId}` }),
    ...pollingWhile<RolloutDetail>((data) => (active(data?.status) ? 5000 : false)),
  });
};

export const usePlanPreview = (fleetId: number) => {
  const client = useClient();
  return useMutation({
    mutationFn: (plan: PlanInput) =>
      client.request<PlanPreview>({
        method: 'POST',
        path: `/rollouts/v1/fleets/${fleetId}/rollout-plan`,
        body: plan,
      }),
  });
};

export const useStartRollout = (fleetId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PlanInput) =>
      client.request<RolloutDetail>({
        method: 'POST',
        path: `/rollouts/v1/fleets/${fleetId}/rollouts`,
        body: plan,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: rolloutKeys.all });
      // Pins moved: the devices and the releases they run show it.
      await queryClient.invalidateQueries({ queryKey: queryRoots.devices });
    },
  });
};

export type RolloutCommand = 'pause' | 'resume' | 'abort' | 'skip-gate';

export const useRolloutCommand = (rolloutId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ command, reason }: { command: RolloutCommand; reason?: string }) =>
      client.request<RolloutDetail>({
        method: 'POST',
        path: `/rollouts/v1/rollouts/${rolloutId}/${command}`,
        body: reason === undefined ? {} : { reason },
      }),
    onSuccess: async (detail) => {
      queryClient.setQueryData(rolloutKeys.rollout(rolloutId), detail);
      await queryClient.invalidateQueries({ queryKey: rolloutKeys.all });
      await queryClient.invalidateQueries({ queryKey: queryRoots.devices });
    },
  });
};
