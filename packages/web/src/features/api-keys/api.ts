import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { apiKeyListRefreshMs } from '@flotilla/shared/constants/limits';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { apiKeyKeys } from './query-keys.js';
import { countFeatureUse } from '../../api/feature-use.js';

export type ApiKeyRow = {
  id: number;
  name: string | null;
  description: string | null;
  created_at: string;
  expiry_date: string | null;
};

// The fleet's provisioning keys: the keys of the fleet's actor (a device provisions itself with
// one), as the SDK's getProvisioningApiKeysByApplication reads them.
const fetchFleetApiKeys = async (client: FlotillaClient, fleetId: number): Promise<ApiKeyRow[]> => {
  const fleet = await client.pine.get({
    resource: 'application',
    id: fleetId,
    options: { $select: ['actor'] },
  });
  if (!fleet) return [];
  const actor = fleet.actor.__id;
  return await client.pine.get({
    resource: 'api_key',
    options: {
      $select: ['id', 'name', 'description', 'created_at', 'expiry_date'],
      $filter: { is_of__actor: actor },
      $orderby: [{ name: 'asc' }, { id: 'asc' }],
    },
  });
};

export type NewApiKey = { name: string; description: string | null; expiryDate: string | null };

// Mints a provisioning key; the answer is the key itself, shown once.
const createProvisioningKey = async (
  client: FlotillaClient,
  fleetId: number,
  key: NewApiKey,
): Promise<string> =>
  await client.request<string>({
    method: 'POST',
    path: `/api-key/application/${fleetId}/provisioning`,
    body: key,
  });

// The signed-in user's named API keys, as balena-sdk's getAllNamedUserApiKeys reads them: the
// keys of the user's actor that have a name.
const fetchUserApiKeys = async (client: FlotillaClient, actorId: number): Promise<ApiKeyRow[]> =>
  await client.pine.get({
    resource: 'api_key',
    options: {
      $select: ['id', 'name', 'description', 'created_at', 'expiry_date'],
      $filter: { is_of__actor: actorId, $not: { name: null } },
      $orderby: [{ name: 'asc' }, { id: 'asc' }],
    },
  });

// Mints a named user API key (administrator-level: it acts as the user); shown once.
const createUserApiKey = async (client: FlotillaClient, key: NewApiKey): Promise<string> =>
  await client.request<string>({ method: 'POST', path: '/api-key/user/full', body: key });

// Whether the user signs in through SAML, who may not create API keys (their access is the
// identity provider's to grant and end). The
// filter keeps it to the user's own rows: fellow members' accounts are readable too (a badge).
const fetchHasSamlAccount = async (client: FlotillaClient, userId: number): Promise<boolean> => {
  const accounts = await client.pine.get({
    resource: 'saml_account',
    options: { $select: ['id'], $filter: { belongs_to__user: userId }, $top: 1 },
  });
  return accounts.length > 0;
};

// Polled while shown: keys made elsewhere (the CLI, another tab) appear.
export const useFleetApiKeys = (fleetId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: apiKeyKeys.fleet(fleetId),
    queryFn: () => fetchFleetApiKeys(client, fleetId),
    enabled,
    ...polling(apiKeyListRefreshMs),
  });
};

export const useUserApiKeys = (actorId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: apiKeyKeys.user(actorId),
    queryFn: () => (actorId === undefined ? [] : fetchUserApiKeys(client, actorId)),
    enabled: actorId !== undefined,
    ...polling(apiKeyListRefreshMs),
  });
};

export const useHasSamlAccount = (userId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: apiKeyKeys.samlAccount(userId),
    queryFn: () => (userId === undefined ? false : fetchHasSamlAccount(client, userId)),
    enabled: userId !== undefined,
  });
};

// Mints a key for the fleet: the function the create dialog calls.
export const useCreateProvisioningKey = (fleetId: number) => {
  const client = useClient();
  return async (key: NewApiKey) => {
    const created = await createProvisioningKey(client, fleetId, key);
    countFeatureUse('create-api-key');
    return created;
  };
};

// Mints a named key for the signed-in user: the function the create dialog calls.
export const useCreateUserApiKey = () => {
  const client = useClient();
  return async (key: NewApiKey) => {
    const created = await createUserApiKey(client, key);
    countFeatureUse('create-api-key');
    return created;
  };
};

// Refreshes one key list (`key`: apiKeyKeys.fleet(…) or apiKeyKeys.user(…)).
export const useReloadApiKeys = (key: readonly unknown[]) => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key });
};

// Revoking a key: it stops working at once. The list reloads whether it worked or not.
export const useRevokeApiKey = ({
  reload,
  onRevoked,
  inlineError = false,
}: {
  reload: () => Promise<unknown>;
  onRevoked: (key: ApiKeyRow) => void;
  inlineError?: boolean;
}) => {
  const client = useClient();
  return useMutation({
    ...(inlineError ? { meta: { inlineError: true } } : {}),
    mutationFn: async (key: ApiKeyRow) => {
      await client.pine.delete({ resource: 'api_key', id: key.id });
    },
    onSuccess: (_result, key) => onRevoked(key),
    onSettled: reload,
  });
};

export const useRenameApiKey = (apiKeyId: number, onSaved: () => Promise<void>) => {
  const client = useClient();
  return useMutation({
    mutationFn: async (change: { name: string; description: string | null }) => {
      await client.pine.patch({ resource: 'api_key', id: apiKeyId, body: change });
    },
    onSuccess: onSaved,
  });
};
