import { useQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.js';
import { useSession } from '../api/session/useSession.js';
import { fleetKeys } from './query-keys.js';

// What creating a fleet offers (the create dialog and the /deploy page): the organizations the
// user administers (only they may receive new fleets) and the device types.
export const useAdministeredOrganizations = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: fleetKeys.administeredOrganizations(session?.userId),
    queryFn: () =>
      client.pine.get({
        resource: 'organization',
        options: {
          $select: ['id', 'name', 'handle'],
          $filter: {
            organization_membership: {
              $any: {
                $alias: 'm',
                $expr: {
                  m: {
                    user: session?.userId ?? 0,
                    organization_membership_role: {
                      $any: { $alias: 'r', $expr: { r: { name: 'administrator' } } },
                    },
                  },
                },
              },
            },
          },
          $orderby: { name: 'asc' },
        },
      }),
  });
};

export const useDeviceTypes = () => {
  const client = useClient();
  return useQuery({
    queryKey: fleetKeys.deviceTypes(),
    queryFn: () =>
      client.pine.get({
        resource: 'device_type',
        options: { $select: ['id', 'slug', 'name'], $orderby: { name: 'asc' } },
      }),
    staleTime: 60_000,
  });
};
