import { randomBytes } from 'node:crypto';
import { type ApiClient, ApiError, type RetryOptions } from './api-client.js';

export type DeviceIdentity = {
  uuid: string;
  deviceApiKey: string;
  deviceId: number | null;
  registered: boolean;
};

// Where the identity lives: config.json for a real device, memory or a state dir for the
// simulator. It is saved before registering so a lost 201 never forks the device's identity.
export type IdentityStore = {
  load(): Promise<Partial<DeviceIdentity>>;
  save(identity: DeviceIdentity): Promise<void>;
};

export type RegistrationDetails = {
  applicationId: number;
  deviceType: string;
  provisioningKey: string;
  userId?: number | null;
  supervisorVersion?: string;
  osVersion?: string;
  osVariant?: string;
  macAddress?: string;
};

export class ProvisioningError extends Error {
  // The HTTP status of the refusal, when there was one.
  readonly status: number | null;

  constructor(message: string, status: number | null = null) {
    super(message);
    this.name = 'ProvisioningError';
    this.status = status;
  }
}

export const generateUuid = (): string => randomBytes(16).toString('hex');

// 43 URL-safe characters: accepted by the server's api_key rule ([A-Za-z0-9_-]{16,128}).
export const generateDeviceKey = (): string => randomBytes(32).toString('base64url');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

// After a 409 the uuid exists: it is ours when our key can read it (the supervisor does the same
// with GET /v7/device?$filter=uuid eq '…').
const deviceIdVisibleTo = async (
  api: ApiClient,
  uuid: string,
  key: string,
): Promise<number | null> => {
  const filter = encodeURIComponent(`uuid eq '${uuid}'`);
  const response = await api.send({
    method: 'GET',
    path: `/v7/device?$select=id&$filter=${filter}`,
    token: key,
  });
  if (response.status !== 200 || !isRecord(response.body)) return null;
  const rows = response.body.d;
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  return isRecord(first) && typeof first.id === 'number' ? first.id : null;
};

// Registers the device with the fleet's provisioning key (POST /device/register → 201
// {id, uuid, api_key}) unless it already is, and returns the identity to use from then on.
export const provision = async (
  api: ApiClient,
  store: IdentityStore,
  details: RegistrationDetails,
  retry: RetryOptions = {},
): Promise<DeviceIdentity> => {
  const known = await store.load();
  const identity: DeviceIdentity = {
    uuid: known.uuid ?? generateUuid(),
    deviceApiKey: known.deviceApiKey ?? generateDeviceKey(),
    deviceId: known.deviceId ?? null,
    registered: known.registered ?? false,
  };
  if (identity.registered) return identity;
  if (known.uuid !== identity.uuid || known.deviceApiKey !== identity.deviceApiKey) {
    await store.save(identity);
  }
  const body = {
    ...(details.userId ? { user: details.userId } : {}),
    application: details.applicationId,
    uuid: identity.uuid,
    device_type: details.deviceType,
    api_key: identity.deviceApiKey,
    supervisor_version: details.supervisorVersion,
    os_version: details.osVersion,
    os_variant: details.osVariant,
    mac_address: details.macAddress,
  };
  try {
    const response = await api.requestWithRetry(
      { method: 'POST', path: '/device/register', body, token: details.provisioningKey },
      [201],
      retry,
    );
    const answer = isRecord(response.body) ? response.body : {};
    const registered: DeviceIdentity = {
      uuid: identity.uuid,
      deviceApiKey: typeof answer.api_key === 'string' ? answer.api_key : identity.deviceApiKey,
      deviceId: typeof answer.id === 'number' ? answer.id : null,
      registered: true,
    };
    await store.save(registered);
    return registered;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 409) {
      const deviceId = await deviceIdVisibleTo(api, identity.uuid, identity.deviceApiKey);
      if (deviceId === null) {
        throw new ProvisioningError(
          `uuid ${identity.uuid} is already registered and our device key is not valid for it`,
          409,
        );
      }
      const registered = { ...identity, deviceId, registered: true };
      await store.save(registered);
      return registered;
    }
    if (error.status === 401 || error.status === 403) {
      throw new ProvisioningError(
        `registration refused (${error.status}): check the provisioning key and fleet id`,
        error.status,
      );
    }
    throw new ProvisioningError(`registration failed: ${error.message}`, error.status);
  }
};

export const memoryIdentityStore = (initial: Partial<DeviceIdentity> = {}): IdentityStore => {
  let current = { ...initial };
  return {
    load: async () => ({ ...current }),
    save: async (identity) => {
      current = { ...identity };
    },
  };
};
