import { errorText } from '@flotilla/sdk/errors';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import type { RepositoryContract } from '@flotilla/shared/fleets/repository-contract';
import type { ConfigVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fleetKeys } from '../../fleet/query-keys.js';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { fleetsFeatureKeys } from './query-keys.js';
import { createdFleetId } from '../../fleet/created-fleet-id.js';
import { countFeatureUse } from '../../api/feature-use.js';

export type FleetVariable = { name: string; value: string };

// The repository URL's contract, looked up by the server on the code host (default branch, raw
// balena.yml, within 10 s). The dialog waits for it before it lets the fleet be created.
export const useRepositoryContract = (url: string) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.repositoryContract(url),
    enabled: url !== '',
    staleTime: 60_000,
    queryFn: () =>
      client.request<RepositoryContract>({
        path: '/code-host/v1/repository-contract',
        query: { url },
      }),
  });
};

// The naming rules of fleet variables (GET /config/vars), for the dialog's variable names.
export const useVariableNamingRules = (deviceTypeSlug: string | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.variableNamingRules(deviceTypeSlug ?? ''),
    enabled: deviceTypeSlug !== undefined,
    staleTime: 60_000,
    queryFn: () =>
      client.request<ConfigVarsAnswer>({
        path: '/config/vars',
        query: { deviceType: deviceTypeSlug ?? '' },
      }),
  });
};

export type NewFleet = {
  name: string;
  organization: { id: number; handle: string } | undefined;
  deviceTypeId: number | undefined;
  // Advanced configuration: all optional.
  repositoryUrl: string | null;
  // What a first release is built from (the tarball URL, else the repository's archive).
  buildFrom: string | null;
  environment: readonly FleetVariable[];
  configuration: readonly FleetVariable[];
};

// The fleet exists; `problems` name what of the rest did not happen (the dialog says so).
export type CreatedFleet = { id: number; releaseId: number | null; problems: string[] };

type VariableResource = 'application_environment_variable' | 'application_config_variable';

// Creates the fleet (with its repository URL), then its variables (10 writes at a time) and then
// starts a release built from the URL (POST /v3/buildFromUrl, answered once the release exists).
// A failure after the fleet exists is reported, not thrown: the fleet is not lost.
export const useCreateFleet = (className: ApplicationClass) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    // The dialog shows this error itself.
    meta: { inlineError: true },
    mutationFn: async (fleet: NewFleet): Promise<CreatedFleet> => {
      const { name, organization, deviceTypeId } = fleet;
      if (organization === undefined || deviceTypeId === undefined || !name)
        throw new Error('missing required attributes');
      const created = await client.pine.post({
        resource: 'application',
        body: {
          app_name: name,
          organization: organization.id,
          is_for__device_type: deviceTypeId,
          is_of__class: className,
          ...(fleet.repositoryUrl === null
            ? {}
            : { is_stored_at__repository_url: fleet.repositoryUrl }),
        },
      });
      const fleetId = createdFleetId(created);
      countFeatureUse('create-fleet');
      const problems: string[] = [];
      const writes: { resource: VariableResource; variable: FleetVariable }[] = [
        ...fleet.environment.map((variable) => ({
          resource: 'application_environment_variable' as const,
          variable,
        })),
        ...fleet.configuration.map((variable) => ({
          resource: 'application_config_variable' as const,
          variable,
        })),
      ];
      const outcomes = await runWithConcurrency(writes, 10, ({ resource, variable }) =>
        client.pine.post({
          resource,
          body: { application: fleetId, name: variable.name, value: variable.value },
        }),
      );
      for (const outcome of outcomes) {
        if (!outcome.ok) {
          problems.push(
            `Variable ${outcome.item.variable.name} was not added: ${errorText(outcome.error) ?? 'failed'}`,
          );
        }
      }
      let releaseId: number | null = null;
      if (fleet.buildFrom !== null) {
        try {
          const answer = await client.request<{ releaseId?: number; message?: string }>({
            method: 'POST',
            path: '/v3/buildFromUrl',
            query: { headless: 'true', owner: organization.handle, app: name },
            body: { url: fleet.buildFrom, shouldFlatten: true },
          });
          releaseId = typeof answer.releaseId === 'number' ? answer.releaseId : null;
          if (releaseId === null) problems.push(answer.message ?? 'No release was started');
        } catch (error) {
          problems.push(`No release was built: ${errorText(error) ?? 'the builder refused'}`);
        }
      }
      return { id: fleetId, releaseId, problems };
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
    },
  });
};
