import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import {
  grantsOnFleet,
  rolesOnFleet,
  type UserMemberships,
} from '@flotilla/shared/permissions/fleet-access';
import type { AnyRole } from '@flotilla/shared/permissions/roles';

// What the batch actions need of a selected application: the list rows lack the architecture,
// the legacy flag and the user's roles.
export type BatchFleetRow = {
  id: number;
  app_name: string;
  is_of__class: ApplicationClass;
  organization: { id: number }[];
  is_for__device_type: {
    id: number;
    slug: string;
    name: string;
    is_of__cpu_architecture: { id: number; slug: string }[];
  }[];
  application_type: { is_legacy: boolean }[];
};

export type BatchRows = {
  applications: BatchFleetRow[];
  // The user's memberships that concern the selection.
  memberships: UserMemberships;
};

const roleOf = (role: readonly { name: string }[]): string => role[0]?.name ?? '';

export type BatchFleet = {
  id: number;
  name: string;
  className: ApplicationClass;
  organizationId: number;
  deviceType: { id: number; slug: string; name: string } | null;
  architecture: { id: number; slug: string } | null;
  isLegacy: boolean;
  roles: AnyRole[];
};

// The selected applications and every role row of the user on them: four requests for the whole
// selection (useFleetRole asks three per fleet, too many for a list).
export const fetchBatchRows = async (
  client: FlotillaClient,
  ids: readonly number[],
  userId: number,
): Promise<BatchRows> => {
  const inIds = { $in: [...ids] };
  const [applications, memberships, teamAccesses, organizationMemberships] = await Promise.all([
    client.pine.get({
      resource: 'application',
      options: {
        $select: ['id', 'app_name', 'is_of__class'],
        $filter: { id: inIds },
        $expand: {
          organization: { $select: ['id'] },
          is_for__device_type: {
            $select: ['id', 'slug', 'name'],
            $expand: { is_of__cpu_architecture: { $select: ['id', 'slug'] } },
          },
          application_type: { $select: ['is_legacy'] },
        },
        $orderby: { app_name: 'asc' },
      },
    }),
    client.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['id', 'is_member_of__application'],
        $filter: { user: userId, is_member_of__application: inIds },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['id', 'grants_access_to__application'],
        $filter: {
          grants_access_to__application: inIds,
          team: {
            $any: {
              $alias: 't',
              $expr: {
                t: {
                  team_membership: { $any: { $alias: 'tm', $expr: { tm: { user: userId } } } },
                },
              },
            },
          },
        },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['id', 'is_member_of__organization'],
        $filter: { user: userId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
  ]);
  return {
    applications,
    memberships: {
      fleetMemberships: memberships.map((row) => ({
        applicationId: row.is_member_of__application.__id,
        role: roleOf(row.application_membership_role),
      })),
      teamAccesses: teamAccesses.map((row) => ({
        applicationId: row.grants_access_to__application.__id,
        role: roleOf(row.application_membership_role),
      })),
      organizationMemberships: organizationMemberships.map((row) => ({
        organizationId: row.is_member_of__organization.__id,
        role: roleOf(row.organization_membership_role),
      })),
    },
  };
};

// Each application with the roles the user holds on it (shared/permissions/fleet-access.ts, as
// useFleetRole).
export const batchFleetsOf = (
  rows: BatchRows,
  sessionPermissions: readonly string[],
): BatchFleet[] =>
  rows.applications.map((application) => {
    const organizationId = application.organization[0]?.id ?? 0;
    const deviceType = application.is_for__device_type[0];
    const roles = rolesOnFleet(
      grantsOnFleet(rows.memberships, { id: application.id, organizationId }),
      sessionPermissions,
    );
    return {
      id: application.id,
      name: application.app_name,
      className: application.is_of__class,
      organizationId,
      deviceType: deviceType
        ? { id: deviceType.id, slug: deviceType.slug, name: deviceType.name }
        : null,
      architecture: deviceType?.is_of__cpu_architecture[0] ?? null,
      isLegacy: application.application_type[0]?.is_legacy ?? false,
      roles,
    };
  });
