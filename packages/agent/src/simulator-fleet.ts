import { type ApiClient, ApiError } from './api-client.js';

export type ResolvedFleet = {
  id: number;
  slug: string;
  deviceType: string;
  // The CPU architecture of the fleet's releases (null when the server did not tell).
  architecture: string | null;
};

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null;

// An expanded to-one navigation arrives as a one-element array (balena v7), or as an object.
const expanded = (value: unknown): Row | null => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return isRow(first) ? first : null;
};

const slugOf = (value: unknown): string | null => {
  const row = expanded(value);
  return row && typeof row.slug === 'string' ? row.slug : null;
};

const query = async (
  api: ApiClient,
  key: string,
  slug: string,
  expand: string,
): Promise<Row | null> => {
  const filter = encodeURIComponent(`slug eq '${slug.replaceAll("'", "''")}'`);
  const response = await api.requestWithRetry(
    {
      method: 'GET',
      path: `/v7/application?$select=id,slug&$filter=${filter}&$expand=${expand}`,
      token: key,
    },
    [200],
    { attempts: 5 },
  );
  const rows = isRow(response.body) ? response.body.d : null;
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  return isRow(first) ? first : null;
};

// The fleet a provisioning key registers into, found by slug with that key (a provisioning key
// may read its own fleet): its id, device type and architecture.
export const resolveFleet = async (
  api: ApiClient,
  slug: string,
  provisioningKey: string,
): Promise<ResolvedFleet> => {
  const wanted = slug.toLowerCase();
  let row: Row | null;
  try {
    row = await query(
      api,
      provisioningKey,
      wanted,
      // Raw, as pinejs-client writes it: the OData parser does not decode %3D inside $expand.
      'is_for__device_type($select=slug;$expand=is_of__cpu_architecture($select=slug))',
    );
  } catch (error) {
    // An engine without nested expansions still tells the id and type.
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    row = await query(api, provisioningKey, wanted, 'is_for__device_type($select=slug)');
  }
  if (!row || typeof row.id !== 'number') {
    throw new Error(`Fleet '${slug}' was not found, or the provisioning key does not belong to it`);
  }
  const type = expanded(row.is_for__device_type);
  const deviceType = slugOf(row.is_for__device_type);
  if (deviceType === null) throw new Error(`Fleet '${slug}' has no device type`);
  return {
    id: row.id,
    slug: typeof row.slug === 'string' ? row.slug : wanted,
    deviceType,
    architecture: type ? slugOf(type.is_of__cpu_architecture) : null,
  };
};
