import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { DeployVariable } from './deploy-config.js';
import { createdFleetId } from '../../fleet/created-fleet-id.js';

// Where the release goes: a fleet created for it, or one the user chose.
export type DeployTarget =
  | {
      kind: 'new';
      organizationId: number;
      organizationHandle: string;
      name: string;
      deviceTypeId: number;
    }
  | { kind: 'existing'; fleetId: number; organizationHandle: string; name: string };

export type DeployPlan = {
  target: DeployTarget;
  tarballUrl: string;
  environment: readonly DeployVariable[];
  configuration: readonly DeployVariable[];
};

export type DeployStep = 'fleet' | 'variables' | 'release';

// The release exists (running) once the builder answered; its build goes on on the server and
// is followed by DeployBuildStatus.
export type DeployOutcome = { fleetId: number; releaseId: number };

// A failure after the fleet was created names it, so that trying again uses it.
export class DeployFailure extends Error {
  readonly fleetId: number | null;
  constructor(cause: unknown, fleetId: number | null) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'DeployFailure';
    this.fleetId = fleetId;
  }
}

type VariableResource = 'application_environment_variable' | 'application_config_variable';

// Sets each variable on the fleet: changes the ones it has, adds the others.
const setVariables = async (
  client: FlotillaClient,
  resource: VariableResource,
  application: number,
  variables: readonly DeployVariable[],
): Promise<void> => {
  if (variables.length === 0) return;
  const existing = await client.pine.get({
    resource,
    options: {
      $select: ['id', 'name'],
      $filter: { application, name: { $in: variables.map((variable) => variable.name) } },
    },
  });
  for (const { name, value } of variables) {
    const found = existing.find((row) => row.name === name);
    if (found) await client.pine.patch({ resource, id: found.id, body: { value } });
    else await client.pine.post({ resource, body: { application, name, value } });
  }
};

// Deploy from a URL: the fleet created or chosen, its variables set, then a release
// built from the tarball URL by the server (POST /v3/buildFromUrl, as balena-sdk's
// release.createFromUrl sends it), which answers once the release exists and builds it after.
export const runDeploy = async (
  client: FlotillaClient,
  plan: DeployPlan,
  onStep: (step: DeployStep) => void,
): Promise<DeployOutcome> => {
  const { target } = plan;
  let fleetId: number | null = target.kind === 'existing' ? target.fleetId : null;
  try {
    if (target.kind === 'new') {
      onStep('fleet');
      const created = await client.pine.post({
        resource: 'application',
        body: {
          app_name: target.name,
          organization: target.organizationId,
          is_for__device_type: target.deviceTypeId,
          is_of__class: 'fleet',
        },
      });
      fleetId = createdFleetId(created);
    }
    if (fleetId === null) throw new Error('No fleet to deploy to');
    onStep('variables');
    await setVariables(client, 'application_environment_variable', fleetId, plan.environment);
    await setVariables(client, 'application_config_variable', fleetId, plan.configuration);
    onStep('release');
    const answer = await client.request<{
      started?: boolean;
      releaseId?: number;
      message?: string;
    }>({
      method: 'POST',
      path: '/v3/buildFromUrl',
      query: { headless: 'true', owner: target.organizationHandle, app: target.name },
      body: { url: plan.tarballUrl, shouldFlatten: true },
    });
    if (answer.started !== true || typeof answer.releaseId !== 'number') {
      throw new Error(answer.message ?? 'The release could not be created');
    }
    return { fleetId, releaseId: answer.releaseId };
  } catch (error) {
    throw new DeployFailure(error, fleetId);
  }
};
