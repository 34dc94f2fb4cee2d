import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../../api/client.js';
import { applicationTypeSelect } from '../../../fleet/api-fleet-detail.js';
import { confirmListLimit } from '../../../ui/ConfirmDialog.js';
import { fleetsFeatureKeys } from '../query-keys.js';

// Every application type, for the type setting to tell which ones the fleet may switch to.
export const useApplicationTypes = () => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.applicationTypes(),
    staleTime: 60_000,
    queryFn: () =>
      client.pine.get({
        resource: 'application_type',
        options: { $select: [...applicationTypeSelect], $orderby: { name: 'asc' } },
      }),
  });
};

// How many services the fleet's releases define: several need a multicontainer type.
export const useServiceCount = (fleetId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.serviceCount(fleetId),
    queryFn: () =>
      client.pine.get({
        resource: 'service',
        options: { $count: { $filter: { application: fleetId } } },
      }),
  });
};

// The first devices, for the delete dialog's list of what goes with the fleet.
export const useFleetDeviceNames = (fleetId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.deviceNames(fleetId),
    enabled,
    queryFn: async () =>
      (
        await client.pine.get({
          resource: 'device',
          options: {
            $select: ['device_name'],
            $filter: { belongs_to__application: fleetId },
            $orderby: { device_name: 'asc' },
            $top: confirmListLimit,
          },
        })
      ).map((device) => device.device_name),
  });
};

// The user's organizations with their role there and the names of their fleets, from which the
// transfer's possible targets are chosen.
export const useTransferOrganizations = (userId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: fleetsFeatureKeys.transferOrganizations(userId),
    enabled: userId > 0,
    queryFn: () =>
      client.pine.get({
        resource: 'organization',
        options: {
          $select: ['id', 'name'],
          $filter: {
            organization_membership: {
              $any: { $alias: 'm', $expr: { m: { user: userId } } },
            },
          },
          $expand: {
            organization_membership: {
              $select: ['id'],
              $filter: { user: userId },
              $expand: { organization_membership_role: { $select: ['name'] } },
            },
            application: { $select: ['app_name'] },
          },
          $orderby: { name: 'asc' },
        },
      }),
  });
};
