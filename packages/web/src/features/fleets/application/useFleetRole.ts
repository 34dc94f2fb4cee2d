import { grants } from '@flotilla/shared/permissions/permissions';
import type { AnyRole } from '@flotilla/shared/permissions/roles';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useClient } from '../../../app/client.js';
import { useSession } from '../../session/useSession.js';
import { applicationKey, rowsOf } from './application-detail.js';
import {
  deniedReason,
  type FleetAccessRows,
  fleetPermissionsOf,
  fleetRolesOf,
} from './fleet-role.js';

export type FleetRoleState = {
  roles: AnyRole[];
  // The user's own user_application_membership on the fleet, when they have a direct role.
  directMembershipId: number | null;
  isPending: boolean;
  error: Error | null;
  can: (resource: string, action: string) => boolean;
  // Null when allowed, else the text of the disabled control's tooltip.
  denied: (resource: string, action: string) => string | null;
};

// The user's roles on one fleet. There is no role endpoint: they come from the direct
// membership, the accesses of the user's teams and the membership of the fleet's organization.
export const useFleetRole = (applicationId: number): FleetRoleState => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const rows = useQuery({
    queryKey: [...applicationKey(applicationId), 'role', userId],
    enabled: userId > 0 && applicationId > 0,
    staleTime: 30_000,
    queryFn: async (): Promise<FleetAccessRows> => {
      const [memberships, teamAccesses, organizationMemberships] = await Promise.all([
        rowsOf<FleetAccessRows['memberships']>(
          client.pine.get({
            resource: 'user_application_membership',
            options: {
              $select: ['id'],
              $filter: { user: userId, is_member_of__application: applicationId },
              $expand: { application_membership_role: { $select: ['name'] } },
            },
          }),
        ),
        rowsOf<FleetAccessRows['teamAccesses']>(
          client.pine.get({
            resource: 'team_application_access',
            options: {
              $select: ['id'],
              $filter: {
                grants_access_to__application: applicationId,
                team: {
                  $any: {
                    $alias: 't',
                    $expr: {
                      t: {
                        team_membership: {
                          $any: { $alias: 'tm', $expr: { tm: { user: userId } } },
                        },
                      },
                    },
                  },
                },
              },
              $expand: { application_membership_role: { $select: ['name'] } },
            },
          }),
        ),
        client.pine.get({
          resource: 'organization_membership',
          options: {
            $select: ['id'],
            $filter: {
              user: userId,
              is_member_of__organization: {
                $any: {
                  $alias: 'o',
                  $expr: {
                    o: {
                      application: {
                        $any: { $alias: 'a', $expr: { a: { id: applicationId } } },
                      },
                    },
                  },
                },
              },
            },
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
        }) as Promise<FleetAccessRows['organizationMemberships']>,
      ]);
      return { memberships, teamAccesses, organizationMemberships };
    },
  });
  const sessionPermissions = session?.permissions;
  return useMemo((): FleetRoleState => {
    const roles = rows.data ? fleetRolesOf(rows.data, sessionPermissions ?? []) : [];
    const held = fleetPermissionsOf(roles);
    const can = (resource: string, action: string): boolean =>
      rows.isSuccess && grants(held, resource, action);
    return {
      roles,
      directMembershipId: rows.data?.memberships[0]?.id ?? null,
      isPending: rows.isPending,
      error: rows.error,
      can,
      denied: (resource, action) => {
        if (can(resource, action)) return null;
        return rows.isSuccess ? deniedReason(resource, action) : 'Checking your permissions…';
      },
    };
  }, [rows.data, rows.isPending, rows.isSuccess, rows.error, sessionPermissions]);
};
