import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useToasts } from '../../ui/toasts.js';
import { variableKeys } from './query-keys.js';
import { allServices, type Override, type OverrideTarget } from './variable-model.js';

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

export const useOverrides = (fleetId: number, target: OverrideTarget) => {
  const client = useClient();
  return useQuery({
    queryKey: variableKeys.overrides(fleetId, target),
    queryFn: () => fetchOverrides(client, fleetId, target),
  });
};

// Deleting an override gives the device the fleet value again; every variables table reloads.
export const useRemoveOverride = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  return useMutation({
    mutationFn: async (override: Override) => {
      await client.pine.delete({ resource: override.resource, id: override.id });
    },
    onSuccess: (_result, override) =>
      toasts.show('success', `The override of ${override.device.name} was deleted`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: variableKeys.all }),
  });
};
