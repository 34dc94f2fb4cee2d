import type { FlotillaClient } from '@flotilla/sdk/create-client';

export const fleetApiKeysKey = (fleetId: number) => ['api-keys', 'fleet', fleetId] as const;

export type ApiKeyRow = {
  id: number;
  name: string | null;
  description: string | null;
  created_at: string;
  expiry_date: string | null;
};

// The fleet's provisioning keys: the keys of the fleet's actor (seed 000 section 3.6), as the
// SDK's getProvisioningApiKeysByApplication reads them.
export const fetchFleetApiKeys = async (
  client: FlotillaClient,
  fleetId: number,
): Promise<ApiKeyRow[]> => {
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
export const createProvisioningKey = async (
  client: FlotillaClient,
  fleetId: number,
  key: NewApiKey,
): Promise<string> =>
  await client.request<string>({
    method: 'POST',
    path: `/api-key/application/${fleetId}/provisioning`,
    body: key,
  });

export const userApiKeysKey = (actorId: number | undefined) =>
  ['api-keys', 'user', actorId] as const;

// The signed-in user's named API keys, as balena-sdk's getAllNamedUserApiKeys reads them: the
// keys of the user's actor that have a name.
export const fetchUserApiKeys = async (
  client: FlotillaClient,
  actorId: number,
): Promise<ApiKeyRow[]> =>
  await client.pine.get({
    resource: 'api_key',
    options: {
      $select: ['id', 'name', 'description', 'created_at', 'expiry_date'],
      $filter: { is_of__actor: actorId, $not: { name: null } },
      $orderby: [{ name: 'asc' }, { id: 'asc' }],
    },
  });

// Mints a named user API key (administrator-level: it acts as the user); shown once.
export const createUserApiKey = async (client: FlotillaClient, key: NewApiKey): Promise<string> =>
  await client.request<string>({ method: 'POST', path: '/api-key/user/full', body: key });

export const samlAccountKey = (userId: number | undefined) => ['saml-account', userId] as const;

// Whether the user signs in through SAML, who may not create API keys (seed 000 section 5). The
// filter keeps it to the user's own rows: fellow members' accounts are readable too (a badge).
export const fetchHasSamlAccount = async (
  client: FlotillaClient,
  userId: number,
): Promise<boolean> => {
  const accounts = await client.pine.get({
    resource: 'saml_account',
    options: { $select: ['id'], $filter: { belongs_to__user: userId }, $top: 1 },
  });
  return accounts.length > 0;
};
