import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fleetListQuery, fleetStatusCountsQuery } from '../../fleet/api-fleet-list.js';
import { fleetKeys } from '../../fleet/query-keys.js';
import { fleetListPolling } from '../../ui/polling.js';
import { fleetsFeatureKeys } from './query-keys.js';
import { createdFleetId } from '../../fleet/created-fleet-id.js';

// The organization an /orgs/:organizationId list is scoped to (null when it is not visible).
export const useOrganizationName = (organizationId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.organizationName(organizationId),
    enabled: organizationId !== undefined,
    queryFn: async () =>
      (await client.pine.get({
        resource: 'organization',
        id: organizationId ?? 0,
        options: { $select: ['id', 'name'] },
      })) ?? null,
  });
};

// The list screen's fleets and their devices per status, polled at the list's rate.
export const useFleetList = (className: ApplicationClass, organizationId: number | undefined) => {
  const client = useClient();
  return useQuery({
    ...fleetListQuery(client, className, organizationId),
    ...fleetListPolling(),
  });
};

export const useFleetListStatusCounts = (
  className: ApplicationClass,
  organizationId: number | undefined,
) => {
  const client = useClient();
  return useQuery({
    ...fleetStatusCountsQuery(client, className, organizationId),
    ...fleetListPolling(),
  });
};

// The names already taken in an organization, which a new fleet's name must not clash with.
export const useNamesInOrganization = (organizationId: number | '') => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.namesInOrganization(organizationId),
    enabled: organizationId !== '',
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: {
          $select: ['app_name'],
          $filter: { organization: organizationId === '' ? 0 : organizationId },
        },
      }),
  });
};

export type NewFleet = {
  name: string;
  organizationId: number | '';
  deviceTypeId: number | undefined;
};

// Creates the fleet, refreshes every fleet query, then hands the new id to `onCreated`.
export const useCreateFleet = (className: ApplicationClass, onCreated: (id: number) => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async ({ name, organizationId, deviceTypeId }: NewFleet) => {
      if (organizationId === '' || deviceTypeId === undefined || !name)
        throw new Error('missing required attributes');
      const created = await client.pine.post({
        resource: 'application',
        body: {
          app_name: name,
          organization: organizationId,
          is_for__device_type: deviceTypeId,
          is_of__class: className,
        },
      });
      return createdFleetId(created);
    },
    onSuccess: async (id) => {
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
      onCreated(id);
    },
  });
};

// The ids and names of an organization's fleets, for the rename clash check; the settings page
// and the batch rename share this query (and its cache).
export const useFleetNames = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.names(organizationId),
    enabled,
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: { $select: ['id', 'app_name'], $filter: { organization: organizationId } },
      }),
  });
};

// The device types of one CPU architecture: a fleet's default device type may change only to
// one of them, so its releases keep running on its devices.
export const useDeviceTypesOfArchitecture = (architectureId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.deviceTypesOfArchitecture(architectureId),
    enabled,
    staleTime: 60_000,
    queryFn: () =>
      client.pine.get({
        resource: 'device_type',
        options: {
          $select: ['id', 'slug', 'name'],
          $filter: { is_of__cpu_architecture: architectureId },
          $orderby: { name: 'asc' },
        },
      }),
  });
};
