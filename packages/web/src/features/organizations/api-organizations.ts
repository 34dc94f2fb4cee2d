import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { grants, organizationRolePermissions } from '@flotilla/shared/permissions/permissions';
import { type OrganizationRole, organizationRoles } from '@flotilla/shared/permissions/roles';
import type { WebResource } from '@flotilla/sdk/resources/organization';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { queryRoots } from '../../api/query-roots.js';
import { useSession } from '../../api/session/useSession.js';
import { useToasts } from '../../ui/toasts.js';
import { organizationKeys } from './query-keys.js';
import { countFeatureUse } from '../../api/feature-use.js';

// The organizations of the signed-in user with their own role and counts (the /orgs list).
export const organizationListQuery = (client: FlotillaClient, userId: number) => ({
  queryKey: organizationKeys.list(userId),
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
  queryKey: organizationKeys.detail(id),
  queryFn: async () =>
    (await client.pine.get({
      resource: 'organization',
      id,
      options: {
        $select: ['id', 'name', 'handle', 'logo_image', 'created_at', 'is_frozen'],
        $expand: {
          application: { $select: ['id', 'is_of__class'] },
          organization_membership: { $count: {} },
          owns__team: { $count: {} },
        },
      },
    })) ?? null,
});

export const useOrganizationList = (userId: number) => {
  const client = useClient();
  return useQuery({ ...organizationListQuery(client, userId), ...polling() });
};

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
    queryKey: organizationKeys.administrators(organizationId ?? 0, userId),
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
    queryKey: organizationKeys.ownMembership(organizationId ?? 0, userId),
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
    queryKey: organizationKeys.roleCatalogue,
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

// Where a logo (a web resource of the API) is served from.
export const useLogoSource = (logo: WebResource | null): string | undefined => {
  const client = useClient();
  return logo ? `${client.apiUrl}${logo.href}` : undefined;
};

const uploadLogo = (client: FlotillaClient, organizationId: number, file: File) =>
  client.request<{ logo_image: WebResource }>({
    method: 'PUT',
    path: `/org/v1/organization/${organizationId}/logo`,
    upload: { data: file, contentType: file.type || 'application/octet-stream' },
  });

const removeLogo = (client: FlotillaClient, organizationId: number) =>
  client.request<string>({ method: 'DELETE', path: `/org/v1/organization/${organizationId}/logo` });

// A new organization, then its logo if one was chosen; the caller's onSuccess runs once the lists
// know it.
export const useCreateOrganization = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({ name, logo }: { name: string; logo: File | null }) => {
      const created = await client.pine.post({ resource: 'organization', body: { name } });
      countFeatureUse('create-organization');
      if (logo) await uploadLogo(client, created.id, logo);
      return created.id;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
    },
  });
};

export const useRenameOrganization = (id: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (name: string) =>
      client.pine.patch({ resource: 'organization', id, body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
};

// A new logo (a file) or none (null).
export const useChangeLogo = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (file: File | null): Promise<void> => {
      if (file) await uploadLogo(client, organizationId, file);
      else await removeLogo(client, organizationId);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
};

// The server refuses to delete an organization that still has fleets, so they go first.
export const useDeleteOrganization = ({
  fleetCount,
  onDeleted,
}: {
  fleetCount: number;
  onDeleted: () => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (id: number) => {
      if (fleetCount > 0) {
        await client.pine.delete({
          resource: 'application',
          options: { $filter: { organization: id } },
        });
      }
      await client.pine.delete({ resource: 'organization', id });
    },
    onSuccess: async () => {
      toasts.show('success', 'Organization deleted');
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      await queryClient.invalidateQueries({ queryKey: queryRoots.fleets });
      onDeleted();
    },
  });
};

// Leaving an organization: deleting one's own membership (the last administrator cannot).
export const useLeaveOrganization = (onLeft: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  return useMutation({
    mutationFn: (membershipId: number) =>
      client.pine.delete({ resource: 'organization_membership', id: membershipId }),
    onSuccess: async () => {
      toasts.show('success', 'You left the organization');
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      await queryClient.invalidateQueries({ queryKey: queryRoots.fleets });
      onLeft();
    },
  });
};
