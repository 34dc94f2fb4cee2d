import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fleetKeys } from '../../fleet/query-keys.js';
import { pollingWhile } from '../../ui/polling.js';
import { releaseListRefreshMs } from '../releases/release-limits.js';
import {
  type DeployOutcome,
  type DeployStep,
  type DeployTarget,
  runDeploy,
} from './api-deploy-run.js';
import type { DeployVariable } from './deploy-config.js';
import { type BuildState, phaseOf } from './deploy-build-phase.js';
import { deployKeys } from './query-keys.js';

// The fleets the user can see, with what /v3/buildFromUrl names them by.
export const useDeployTargetFleets = () => {
  const client = useClient();
  return useQuery({
    queryKey: deployKeys.targets(),
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: {
          $select: ['id', 'app_name'],
          $filter: { is_of__class: 'fleet' },
          $expand: { organization: { $select: ['handle'] } },
          $orderby: { app_name: 'asc' },
        },
      }),
  });
};

// The started build's release, read again (as the release page refreshes) until its build has
// ended; null once the release is gone.
export const useDeployBuild = (releaseId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: deployKeys.build(releaseId),
    queryFn: async (): Promise<BuildState | null> =>
      (await client.pine.get({
        resource: 'release',
        id: releaseId,
        options: { $select: ['status', 'build_log', 'start_timestamp', 'update_timestamp'] },
      })) ?? null,
    ...pollingWhile((data: BuildState | null | undefined) =>
      data === undefined || phaseOf(data) === 'running' ? releaseListRefreshMs : false,
    ),
  });
};

export type DeployRequest = {
  target: DeployTarget | null;
  tarballUrl: string;
  environment: readonly DeployVariable[];
  configuration: readonly DeployVariable[];
};

// Runs the deploy (fleet, variables, release). Whatever the outcome, the fleet queries are
// refreshed, since a fleet may have been created on the way.
export const useRunDeploy = ({
  onStart,
  onStep,
  onError,
  onSuccess,
}: {
  onStart: () => void;
  onStep: (step: DeployStep) => void;
  onError: (error: Error) => void;
  onSuccess: (outcome: DeployOutcome) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({ target, ...plan }: DeployRequest) => {
      onStart();
      if (target === null) throw new Error('Choose where to deploy');
      return await runDeploy(client, { target, ...plan }, onStep);
    },
    onError: (error) => {
      onError(error);
      void queryClient.invalidateQueries({ queryKey: fleetKeys.all });
    },
    onSuccess: async (outcome) => {
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
      onSuccess(outcome);
    },
  });
};
