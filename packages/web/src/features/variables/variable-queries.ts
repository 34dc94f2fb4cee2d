import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ConfigVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';

// Reads of the variables screens. Every variables query lives under ['variables'], so applying
// staged edits refreshes the fleet's and its devices' tables alike.
export const variablesKey = ['variables'] as const;
export const fleetVariablesKey = (fleetId: number) => [...variablesKey, 'fleet', fleetId] as const;
export const deviceVariablesKey = (deviceId: number) =>
  [...variablesKey, 'device', deviceId] as const;
export const overridesKey = (fleetId: number, target: OverrideTarget) =>
  [...variablesKey, 'overrides', fleetId, target] as const;
export const configVarsKey = (deviceType: string) => ['config-vars', deviceType] as const;

// Service 0 stands for "All services" (seed 001 section 3): a fleet-wide or device-wide variable.
export const allServices = 0;

export type NameValue = { id: number; name: string; value: string };

// A variable of the fleet: fleet-wide (service 0) or of one service.
export type FleetEnvVariable = NameValue & { serviceId: number };

export type ServiceOption = { id: number; name: string; inRelease: boolean };

export type FleetEnvironment = { variables: FleetEnvVariable[]; services: ServiceOption[] };

const byName = { $orderby: [{ name: 'asc' }, { id: 'asc' }] } as const;

// The fleet's variables, its services' variables and its services, those of the release the
// fleet should run marked (they are the ones offered for new service variables).
export const fetchFleetEnvironment = async (
  client: FlotillaClient,
  fleetId: number,
  releaseId: number | null,
): Promise<FleetEnvironment> => {
  const [fleetVars, serviceVars, services] = await Promise.all([
    client.pine.getAllPaged({
      resource: 'application_environment_variable',
      options: { $select: ['id', 'name', 'value'], $filter: { application: fleetId }, ...byName },
    }),
    client.pine.getAllPaged({
      resource: 'service_environment_variable',
      options: {
        $select: ['id', 'name', 'value', 'service'],
        $filter: {
          service: { $any: { $alias: 's', $expr: { s: { application: fleetId } } } },
        },
        ...byName,
      },
    }),
    client.pine.get({
      resource: 'service',
      options: {
        $select: ['id', 'service_name'],
        $filter: { application: fleetId },
        $orderby: { service_name: 'asc' },
        $expand: {
          is_built_by__image: {
            $count: {
              $filter: {
                release_image: {
                  $any: { $alias: 'ri', $expr: { ri: { is_part_of__release: releaseId ?? 0 } } },
                },
              },
            },
          },
        },
      },
    }),
  ]);
  return {
    variables: [
      ...fleetVars.map((row) => ({ ...row, serviceId: allServices })),
      ...serviceVars.map(({ service, ...row }) => ({ ...row, serviceId: idOf(service) })),
    ],
    services: services.map((row) => ({
      id: row.id,
      name: row.service_name,
      inRelease: row.is_built_by__image > 0,
    })),
  };
};

// A to-one navigation selected without expanding it.
const idOf = (value: { __id: number } | readonly { id: number }[]): number =>
  'length' in value ? (value[0]?.id ?? 0) : value.__id;

export const fetchFleetConfig = async (
  client: FlotillaClient,
  fleetId: number,
): Promise<NameValue[]> =>
  await client.pine.getAllPaged({
    resource: 'application_config_variable',
    options: { $select: ['id', 'name', 'value'], $filter: { application: fleetId }, ...byName },
  });

// A service of the fleet installed on the device, with the device's variables for it.
export type ServiceInstallRow = {
  id: number;
  serviceId: number;
  variables: NameValue[];
};

export type DeviceVariables = {
  environment: NameValue[];
  installs: ServiceInstallRow[];
  config: NameValue[];
};

export const fetchDeviceVariables = async (
  client: FlotillaClient,
  deviceId: number,
): Promise<DeviceVariables> => {
  const [environment, installs, config] = await Promise.all([
    client.pine.getAllPaged({
      resource: 'device_environment_variable',
      options: { $select: ['id', 'name', 'value'], $filter: { device: deviceId }, ...byName },
    }),
    client.pine.get({
      resource: 'service_install',
      options: {
        $select: ['id', 'installs__service'],
        $filter: { device: deviceId },
        $expand: { device_service_environment_variable: { $select: ['id', 'name', 'value'] } },
      },
    }),
    client.pine.getAllPaged({
      resource: 'device_config_variable',
      options: { $select: ['id', 'name', 'value'], $filter: { device: deviceId }, ...byName },
    }),
  ]);
  return {
    environment,
    installs: installs.map((row) => ({
      id: row.id,
      serviceId: idOf(row.installs__service),
      variables: row.device_service_environment_variable,
    })),
    config,
  };
};

// GET /config/vars for a device type: naming rules and configuration schema.
export const fetchConfigVars = async (
  client: FlotillaClient,
  deviceType: string,
): Promise<ConfigVarsAnswer> =>
  await client.request<ConfigVarsAnswer>({
    path: `/config/vars?deviceType=${encodeURIComponent(deviceType)}`,
  });

// Which fleet variable the overrides dialog lists the device values of.
export type OverrideTarget =
  { kind: 'environment'; name: string; serviceId: number } | { kind: 'config'; name: string };

export type Override = {
  id: number;
  resource:
    | 'device_environment_variable'
    | 'device_service_environment_variable'
    | 'device_config_variable';
  value: string;
  device: { id: number; uuid: string; name: string };
};

const deviceSelect = { $select: ['id', 'uuid', 'device_name'] } as const;

const deviceOf = (rows: readonly { id: number; uuid: string; device_name: string }[]) => {
  const [row] = rows;
  return row ? { id: row.id, uuid: row.uuid, name: row.device_name } : null;
};

// The devices of the fleet that set their own value for a fleet variable.
export const fetchOverrides = async (
  client: FlotillaClient,
  fleetId: number,
  target: OverrideTarget,
): Promise<Override[]> => {
  const inFleet = {
    $any: { $alias: 'd', $expr: { d: { belongs_to__application: fleetId } } },
  } as const;
  const overrides: Override[] = [];
  const push = (
    resource: Override['resource'],
    row: { id: number; value: string },
    device: Override['device'] | null,
  ): void => {
    if (device) overrides.push({ id: row.id, resource, value: row.value, device });
  };
  if (target.kind === 'config') {
    const rows = await client.pine.getAllPaged({
      resource: 'device_config_variable',
      options: {
        $select: ['id', 'value'],
        $filter: { name: target.name, device: inFleet },
        $expand: { device: deviceSelect },
      },
    });
    for (const row of rows) push('device_config_variable', row, deviceOf(row.device));
  } else if (target.serviceId === allServices) {
    const rows = await client.pine.getAllPaged({
      resource: 'device_environment_variable',
      options: {
        $select: ['id', 'value'],
        $filter: { name: target.name, device: inFleet },
        $expand: { device: deviceSelect },
      },
    });
    for (const row of rows) push('device_environment_variable', row, deviceOf(row.device));
  } else {
    const rows = await client.pine.getAllPaged({
      resource: 'device_service_environment_variable',
      options: {
        $select: ['id', 'value'],
        $filter: {
          name: target.name,
          service_install: {
            $any: {
              $alias: 'si',
              $expr: { si: { installs__service: target.serviceId, device: inFleet } },
            },
          },
        },
        $expand: {
          service_install: { $select: ['id'], $expand: { device: deviceSelect } },
        },
      },
    });
    for (const row of rows) {
      push(
        'device_service_environment_variable',
        row,
        deviceOf(row.service_install[0]?.device ?? []),
      );
    }
  }
  return overrides.sort((a, b) => a.device.name.localeCompare(b.device.name));
};
