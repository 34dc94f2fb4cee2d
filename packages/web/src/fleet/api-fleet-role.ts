import {
  type FleetGrants,
  fleetPermissionsOf,
  holdsMembershipRole,
  platformRolesOf,
  rolesOnFleet,
} from '@flotilla/shared/permissions/fleet-access';
import { grants } from '@flotilla/shared/permissions/permissions';
import { isSupportAccessGranted } from '@flotilla/shared/permissions/support-access';
import type { AnyRole } from '@flotilla/shared/permissions/roles';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useClient } from '../api/client.js';
import { useSession } from '../api/session/useSession.js';
import { readDirectFleetMemberships, readTeamFleetAccesses } from './api-fleet-grants.js';
import { fleetKeys } from './query-keys.js';
import { deniedReason } from './fleet-role.js';

export type FleetRoleState = {
  roles: AnyRole[];
  // The user's own user_application_membership on the fleet, when they have a direct role.
  directMembershipId: number | null;
  // Holds a role here through a membership (fleet, team or organization), not only as staff.
  isMember: boolean;
  // Until when the fleet grants support access (read for platform staff only; null otherwise).
  supportUntil: string | null;
  isPending: boolean;
  error: Error | null;
  // Reads the memberships again (after a failed read).
  refetch: () => void;
  can: (resource: string, action: string) => boolean;
  // Null when allowed, else the text of the disabled control's tooltip.
  denied: (resource: string, action: string) => string | null;
};

type FleetRoleRows = {
  grants: FleetGrants;
  directMembershipId: number | null;
  // The fleet's support access (read for platform staff only: a support agent's role depends on
  // it, and both see it in a notice).
  supportUntil: string | null;
  // Whether that grant held when read (the rows are read again within 30 seconds).
  supportGranted: boolean;
};

const readSupportUntil = async (client: FlotillaClient, fleetId: number) => {
  const fleet = await client.pine.get({
    resource: 'application',
    id: fleetId,
    options: { $select: ['is_accessible_by_support_until__date'] },
  });
  return fleet?.is_accessible_by_support_until__date ?? null;
};

const roleName = (role: readonly { name: string }[]): string[] => role.map((row) => row.name);

// The user's roles on one fleet. There is no role endpoint: the memberships that concern the
// fleet (direct, through the user's teams, of the fleet's organization) are read here, and the
// roles and permissions derived by shared/permissions/fleet-access.ts, which the server's
// fleet_access view agrees with.
export const useFleetRole = (fleetId: number): FleetRoleState => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const isStaff = platformRolesOf(session?.permissions ?? []).length > 0;
  const rows = useQuery({
    queryKey: fleetKeys.role(fleetId, userId),
    enabled: userId > 0 && fleetId > 0,
    staleTime: 30_000,
    queryFn: async (): Promise<FleetRoleRows> => {
      const [memberships, teamAccesses, organizationMemberships, supportUntil] = await Promise.all([
        readDirectFleetMemberships(client, fleetId, userId),
        readTeamFleetAccesses(client, fleetId, userId),
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
                        $any: { $alias: 'a', $expr: { a: { id: fleetId } } },
                      },
                    },
                  },
                },
              },
            },
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
        }),
        isStaff ? readSupportUntil(client, fleetId) : Promise.resolve(null),
      ]);
      return {
        grants: {
          fleetRoles: [...memberships, ...teamAccesses].flatMap((row) =>
            roleName(row.application_membership_role),
          ),
          organizationRoles: organizationMemberships.flatMap((row) =>
            roleName(row.organization_membership_role),
          ),
        },
        directMembershipId: memberships[0]?.id ?? null,
        supportUntil,
        supportGranted: isSupportAccessGranted(supportUntil, Date.now()),
      };
    },
  });
  const sessionPermissions = session?.permissions;
  const { refetch } = rows;
  return useMemo((): FleetRoleState => {
    const roles = rows.data
      ? rolesOnFleet(rows.data.grants, sessionPermissions ?? [], rows.data.supportGranted)
      : [];
    const held = fleetPermissionsOf(roles);
    const can = (resource: string, action: string): boolean =>
      rows.isSuccess && grants(held, resource, action);
    return {
      roles,
      directMembershipId: rows.data?.directMembershipId ?? null,
      isMember: holdsMembershipRole(roles),
      supportUntil: rows.data?.supportUntil ?? null,
      isPending: rows.isPending,
      error: rows.error,
      refetch: () => void refetch(),
      can,
      denied: (resource, action) => {
        if (can(resource, action)) return null;
        return rows.isSuccess ? deniedReason(resource, action) : 'Checking your permissions…';
      },
    };
  }, [rows.data, rows.isPending, rows.isSuccess, rows.error, refetch, sessionPermissions]);
};
