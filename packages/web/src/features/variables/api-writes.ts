import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { variableKeys } from './query-keys.js';
import { useStagedEdits } from './useStagedEdits.js';
import { serviceNotFound, type VariableChange, type VariableOwner } from './variable-model.js';

// The writes a staged variable edit turns into: POST with owner, name and value; PATCH and
// DELETE by id.

const serviceInstallOf = async (
  client: FlotillaClient,
  device: number,
  service: number,
): Promise<number> => {
  const [install] = await client.pine.get({
    resource: 'service_install',
    options: { $select: ['id'], $filter: { device, installs__service: service }, $top: 1 },
  });
  if (!install) throw new Error(serviceNotFound);
  return install.id;
};

const create = async (
  client: FlotillaClient,
  owner: VariableOwner,
  name: string,
  value: string,
): Promise<void> => {
  switch (owner.resource) {
    case 'application_environment_variable':
    case 'application_config_variable':
      await client.pine.post({
        resource: owner.resource,
        body: { application: owner.application, name, value },
      });
      return;
    case 'service_environment_variable':
      await client.pine.post({
        resource: owner.resource,
        body: { service: owner.service, name, value },
      });
      return;
    case 'device_environment_variable':
    case 'device_config_variable':
      await client.pine.post({
        resource: owner.resource,
        body: { device: owner.device, name, value },
      });
      return;
    case 'device_service_environment_variable': {
      const install = await serviceInstallOf(client, owner.device, owner.service);
      await client.pine.post({
        resource: owner.resource,
        body: { service_install: install, name, value },
      });
    }
  }
};

export const writeVariable = async (
  client: FlotillaClient,
  change: VariableChange,
): Promise<void> => {
  switch (change.action) {
    case 'create':
      await create(client, change.owner, change.name, change.value);
      return;
    case 'update':
      await client.pine.patch({
        resource: change.resource,
        id: change.id,
        body: { value: change.value },
      });
      return;
    case 'delete':
      await client.pine.delete({ resource: change.resource, id: change.id });
  }
};

// The staged edits of a variables table: each change is written as above and every variables
// table reloads after an apply.
export const useStagedVariableEdits = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useStagedEdits<VariableChange>({
    write: (staged) => writeVariable(client, staged.change),
    reload: () => queryClient.invalidateQueries({ queryKey: variableKeys.all }),
  });
};
