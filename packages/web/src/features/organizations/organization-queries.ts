import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { grants, organizationRolePermissions } from '@flotilla/shared/permissions/permissions';
import { type OrganizationRole, organizationRoles } from '@flotilla/shared/permissions/roles';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { useSession } from '../../api/session/useSession.js';

// Query keys of the organization screens: everything under ['organizations'] is refreshed after
// a change to memberships, teams or invitations.
export const organizationsKey = ['organizations'] as const;
export const organizationKey = (id: number) => [...organizationsKey, id] as const;

// "/orgs/12" → 12; anything but a positive integer → null (the screen says so and goes up).
export const idParam = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value) && Number(value) > 0 && Number(value) <= 2_147_483_647
    ? Number(value)
    : null;

// The organizations of the signed-in user with their own role and counts (the /orgs list).
export const organizationListQuery = (client: FlotillaClient, userId: number) => ({
  queryKey: [...organizationsKey, 'list', userId] as const,
  queryFn: () =>
    client.pine.get({
      resource: 'organization',
      options: {
        $select: ['id', 'name', 'handle', 'logo_image'],
        $orderby: { name: 'asc' },
        $expand: {
          organization_membership: {
            $select: ['id', 'user'],
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
          application: { $select: ['id', 'is_of__class'] },
        },
      },
    }),
});

// One organization with what its summary and header show.
export const organizationDetailQuery = (client: FlotillaClient, id: number) => ({
  queryKey: [...organizationKey(id), 'detail'] as const,
  queryFn: async () =>
    (await client.pine.get({
      resource: 'organization',
      id,
      options: {
        $select: ['id', 'name', 'handle', 'logo_image', 'created_at'],
        $expand: {
          application: { $select: ['id', 'is_of__class'] },
          organization_membership: { $count: {} },
          owns__team: { $count: {} },
        },
      },
    })) ?? null,
});

export const useOrganization = (id: number | null) => {
  const client = useClient();
  return useQuery({
    ...organizationDetailQuery(client, id ?? 0),
    enabled: id !== null,
    ...polling(),
  });
};

export type OrganizationAccess = {
  // The signed-in user's membership of the organization (null: none, e.g. a platform admin).
  membershipId: number | null;
  isAdministrator: boolean;
  // How many administrators the organization has (leaving and deleting depend on it).
  administrators: number;
  isPending: boolean;
  // Whether the user's organization role grants the action (the shared permission table the
  // server enforces too).
  can: (resource: string, action: string) => boolean;
};

const isOrganizationRole = (name: string | undefined): name is OrganizationRole =>
  (organizationRoles as readonly (string | undefined)[]).includes(name);

// The signed-in user's role in the organization and how many administrators it has.
export const useOrganizationAccess = (organizationId: number | null): OrganizationAccess => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const rows = useQuery({
    queryKey: [...organizationKey(organizationId ?? 0), 'access', userId],
    enabled: organizationId !== null && userId > 0,
    queryFn: () =>
      client.pine.get({
        resource: 'organization_membership',
        options: {
          $select: ['id', 'user'],
          $filter: {
            is_member_of__organization: organizationId ?? 0,
            organization_membership_role: {
              $any: { $alias: 'r', $expr: { r: { name: 'administrator' } } },
            },
          },
        },
      }),
  });
  const own = useQuery({
    queryKey: [...organizationKey(organizationId ?? 0), 'own-membership', userId],
    enabled: organizationId !== null && userId > 0,
    queryFn: async () =>
      (
        await client.pine.get({
          resource: 'organization_membership',
          options: {
            $select: ['id'],
            $filter: { is_member_of__organization: organizationId ?? 0, user: userId },
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
        })
      )[0] ?? null,
  });
  const role = own.data?.organization_membership_role[0]?.name;
  return {
    membershipId: own.data?.id ?? null,
    isAdministrator: role === 'administrator',
    can: (resource, action) =>
      isOrganizationRole(role) && grants(organizationRolePermissions[role], resource, action),
    administrators: rows.data?.length ?? 0,
    isPending: rows.isPending || own.isPending,
  };
};

// The role catalogues (ids for writes, names for display).
export const useRoleIds = () => {
  const client = useClient();
  return useQuery({
    queryKey: ['role-catalogue'],
    staleTime: Infinity,
    queryFn: async () => {
      const [organizationRoles, applicationRoles] = await Promise.all([
        client.pine.get({
          resource: 'organization_membership_role',
          options: { $select: ['id', 'name'] },
        }),
        client.pine.get({
          resource: 'application_membership_role',
          options: { $select: ['id', 'name'] },
        }),
      ]);
      return {
        organization: new Map(organizationRoles.map((role) => [role.name, role.id])),
        application: new Map(applicationRoles.map((role) => [role.name, role.id])),
      };
    },
  });
};
