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
