import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ConfigVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { variableKeys } from './query-keys.js';
import {
  allServices,
  type DeviceVariables,
  type FleetEnvironment,
  type NameValue,
} from './variable-model.js';

// Reads of the variables screens: the fleet's and the device's variables (polled while shown) and
// a device type's naming rules and configuration schema.

const byName = { $orderby: [{ name: 'asc' }, { id: 'asc' }] } as const;

// A to-one navigation selected without expanding it.
const idOf = (value: { __id: number } | readonly { id: number }[]): number =>
  'length' in value ? (value[0]?.id ?? 0) : value.__id;

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

export const fetchFleetConfig = async (
  client: FlotillaClient,
  fleetId: number,
): Promise<NameValue[]> =>
  await client.pine.getAllPaged({
    resource: 'application_config_variable',
    options: { $select: ['id', 'name', 'value'], $filter: { application: fleetId }, ...byName },
  });

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

export const fleetEnvironmentQuery = (
  client: FlotillaClient,
  fleetId: number,
  releaseId: number | null,
) =>
  queryOptions({
    queryKey: variableKeys.fleetEnvironment(fleetId, releaseId),
    queryFn: () => fetchFleetEnvironment(client, fleetId, releaseId),
  });

export const useFleetEnvironment = (fleetId: number, releaseId: number | null, enabled = true) => {
  const client = useClient();
  return useQuery({ ...fleetEnvironmentQuery(client, fleetId, releaseId), ...polling(), enabled });
};

export const fleetConfigQuery = (client: FlotillaClient, fleetId: number) =>
  queryOptions({
    queryKey: variableKeys.fleetConfig(fleetId),
    queryFn: () => fetchFleetConfig(client, fleetId),
  });

export const useFleetConfig = (fleetId: number, enabled = true) => {
  const client = useClient();
  return useQuery({ ...fleetConfigQuery(client, fleetId), ...polling(), enabled });
};

export const deviceVariablesQuery = (client: FlotillaClient, deviceId: number) =>
  queryOptions({
    queryKey: variableKeys.device(deviceId),
    queryFn: () => fetchDeviceVariables(client, deviceId),
  });

export const useDeviceVariables = (deviceId: number, enabled = true) => {
  const client = useClient();
  return useQuery({ ...deviceVariablesQuery(client, deviceId), ...polling(), enabled });
};

// The naming rules and configuration schema of a device type: they change only with the
// server, so they are read once per session.
export const useConfigVars = (deviceType: string) => {
  const client = useClient();
  return useQuery({
    queryKey: variableKeys.configVars(deviceType),
    queryFn: () => fetchConfigVars(client, deviceType),
    enabled: deviceType !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });
};
