import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { queryRoots } from '../../api/query-roots.js';
import { useSession } from '../../api/session/useSession.js';
import { useToasts } from '../../ui/toasts.js';
import { ssoKeys } from './query-keys.js';

// Identity providers through /v7: the server lists only those the user administers (an
// organization they administer is attached), so the list is also the page's permission.

const providerOptions = {
  $select: ['id', 'sso_identifier', 'entry_point', 'issuer', 'certificate'],
  $expand: {
    identity_provider_membership: {
      $select: ['id', 'organization', 'grants_access_to__team'],
      $expand: {
        organization: { $select: ['id', 'name'] },
        grants_access_to__team: { $select: ['id', 'name'] },
      },
    },
  },
} as const;

const fetchProviders = (client: FlotillaClient) =>
  client.pine.get({ resource: 'identity_provider', options: providerOptions });

export type Provider = Awaited<ReturnType<typeof fetchProviders>>[number];

export const useProviders = () => {
  const client = useClient();
  const session = useSession();
  return useQuery({
    queryKey: ssoKeys.providers(session?.userId),
    queryFn: () => fetchProviders(client),
  });
};

// null: no provider with this id, or not one the user may see.
export const useProvider = (id: number) => {
  const client = useClient();
  return useQuery({
    queryKey: ssoKeys.provider(id),
    queryFn: async () =>
      (await client.pine.get({ resource: 'identity_provider', id, options: providerOptions })) ??
      null,
  });
};

export const useSamlAccountCount = (id: number) => {
  const client = useClient();
  return useQuery({
    queryKey: ssoKeys.accountCount(id),
    queryFn: () =>
      client.pine.get({
        resource: 'saml_account',
        options: { $count: { $filter: { was_generated_by__identity_provider: id } } },
      }),
  });
};

// The organizations the user administers, with their teams: what a provider may be attached to.
export const useAdministeredOrganizations = () => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  return useQuery({
    queryKey: ssoKeys.administered(userId),
    queryFn: () =>
      client.pine.get({
        resource: 'organization',
        options: {
          $select: ['id', 'name'],
          $filter: {
            organization_membership: {
              $any: {
                $alias: 'm',
                $expr: {
                  m: {
                    user: userId,
                    organization_membership_role: {
                      $any: { $alias: 'r', $expr: { r: { name: 'administrator' } } },
                    },
                  },
                },
              },
            },
          },
          $expand: { owns__team: { $select: ['id', 'name'], $orderby: { name: 'asc' } } },
          $orderby: { name: 'asc' },
        },
      }),
  });
};

export type ProviderFields = {
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
};

const useInvalidate = () => {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    // Members joining through a provider show in the organizations' lists.
    void queryClient.invalidateQueries({ queryKey: queryRoots.organizations });
  };
};

export const useCreateProvider = (onCreated: (id: number) => void) => {
  const client = useClient();
  const invalidate = useInvalidate();
  const toasts = useToasts();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async ({
      fields,
      organizationIds,
    }: {
      fields: ProviderFields;
      organizationIds: number[];
    }) => {
      const [first, ...more] = organizationIds;
      if (first === undefined) throw new Error('Choose an organization');
      const created = await client.pine.post({
        resource: 'identity_provider',
        body: { ...fields, organization_id: first },
      });
      for (const organization of more) {
        await client.pine.post({
          resource: 'identity_provider_membership',
          body: { organization, is_authorized_by__identity_provider: created.id },
        });
      }
      return created.id;
    },
    onSuccess: (id) => {
      toasts.show('success', 'Identity provider added');
      invalidate();
      onCreated(id);
    },
  });
};

export const useUpdateProvider = (id: number, onDone: () => void) => {
  const client = useClient();
  const invalidate = useInvalidate();
  const toasts = useToasts();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (fields: ProviderFields) =>
      client.pine.patch({ resource: 'identity_provider', id, body: fields }),
    onSuccess: () => {
      toasts.show('success', 'Identity provider updated');
      invalidate();
      onDone();
    },
  });
};

export const useRemoveProvider = (id: number, onRemoved: () => void) => {
  const client = useClient();
  const invalidate = useInvalidate();
  const toasts = useToasts();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () => client.pine.delete({ resource: 'identity_provider', id }),
    onSuccess: () => {
      toasts.show('success', 'Identity provider removed');
      invalidate();
      onRemoved();
    },
  });
};

export const useAttachOrganizations = (providerId: number, onDone: () => void) => {
  const client = useClient();
  const invalidate = useInvalidate();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (organizationIds: number[]) => {
      for (const organization of organizationIds) {
        await client.pine.post({
          resource: 'identity_provider_membership',
          body: { organization, is_authorized_by__identity_provider: providerId },
        });
      }
    },
    onSuccess: () => {
      invalidate();
      onDone();
    },
  });
};

export const useDetachOrganization = () => {
  const client = useClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (membershipId: number) =>
      client.pine.delete({ resource: 'identity_provider_membership', id: membershipId }),
    onSuccess: invalidate,
  });
};

export const useDefaultTeam = () => {
  const client = useClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ membershipId, teamId }: { membershipId: number; teamId: number | null }) =>
      client.pine.patch({
        resource: 'identity_provider_membership',
        id: membershipId,
        body: { grants_access_to__team: teamId },
      }),
    onSuccess: invalidate,
  });
};
