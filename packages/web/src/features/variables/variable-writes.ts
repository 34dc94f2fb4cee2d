import type { FlotillaClient } from '@flotilla/sdk/create-client';

// The writes a staged variable edit turns into (seed 001 section 7, "Fleet writes" and "Device
// variables"): POST with owner, name and value; PATCH and DELETE by id.

export type VariableResource =
  | 'application_environment_variable'
  | 'application_config_variable'
  | 'service_environment_variable'
  | 'device_environment_variable'
  | 'device_config_variable'
  | 'device_service_environment_variable';

// Where a new variable goes. A device's service variable hangs under the service's install on
// the device, looked up when it is written.
export type VariableOwner =
  | { resource: 'application_environment_variable'; application: number }
  | { resource: 'application_config_variable'; application: number }
  | { resource: 'service_environment_variable'; service: number }
  | { resource: 'device_environment_variable'; device: number }
  | { resource: 'device_config_variable'; device: number }
  | { resource: 'device_service_environment_variable'; device: number; service: number };

export type VariableChange =
  | { action: 'create'; owner: VariableOwner; name: string; value: string }
  | { action: 'update'; resource: VariableResource; id: number; name: string; value: string }
  | { action: 'delete'; resource: VariableResource; id: number; name: string };

// Seed 001 section 8: adding a device variable for a service the device does not run.
export const serviceNotFound = 'Service not found';

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
