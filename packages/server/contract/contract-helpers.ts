import { randomBytes } from 'node:crypto';
import { type BalenaSDK, getSdk } from 'balena-sdk';
import { expect } from 'vitest';
import type { TestServer } from '../src/test-support/test-server.js';

// The device type every contract fleet uses; the server's catalogue seeds it (balena's slug).
export const deviceTypeSlug = 'raspberrypi4-64';

// A fresh SDK instance whose token lives in memory only (dataDirectory: false), so tests never
// read or write ~/.balena and two instances never share a session.
export const newSdk = (apiUrl: string): BalenaSDK =>
  getSdk({ apiUrl, dataDirectory: false, isBrowser: false });

// Short random suffix: names stay unique even when a file re-runs against a reused database.
export const uniqueSuffix = (): string => randomBytes(4).toString('hex');

export type Credentials = { email: string; password: string };

export type RegisteredUser = Credentials & {
  sdk: BalenaSDK;
  // The session token /user/register answered with.
  token: string;
};

export const newCredentials = (label: string): Credentials => ({
  email: `${label}-${uniqueSuffix()}@example.com`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
});

// Signs a new user up through the SDK and logs the instance in with the returned token
// (auth.register itself stores nothing).
export const registerUser = async (apiUrl: string, label = 'user'): Promise<RegisteredUser> => {
  const sdk = newSdk(apiUrl);
  const credentials = newCredentials(label);
  const token = await sdk.auth.register(credentials);
  await sdk.auth.loginWithToken(token);
  return { ...credentials, sdk, token };
};

export type SdkError = Error & { code?: string; statusCode?: number };

// Awaits a call that must fail and returns its error, for assertions on `code` / `statusCode`
// (balena-errors keep `code` on the prototype, so matchers on own properties would miss it).
export const failureOf = async (work: Promise<unknown>): Promise<SdkError> => {
  let outcome: unknown;
  try {
    outcome = await work;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error value: ${String(error)}`, { cause: error });
  }
  throw new Error(`expected the call to fail, but it resolved with ${JSON.stringify(outcome)}`);
};

// Asserts that `work` fails with the typed balena error `code` (e.g. BalenaApplicationNotFound).
export const expectBalenaError = async (work: Promise<unknown>, code: string): Promise<void> => {
  const error = await failureOf(work);
  expect(error.code, `${error.name}: ${error.message}`).toBe(code);
};

// An organization created by `sdk`'s user, to hold that user's fleets.
export const createOrganization = async (
  sdk: BalenaSDK,
  label = 'org',
): Promise<{ id: number; handle: string; name: string }> => {
  const created = await sdk.models.organization.create({ name: `${label} ${uniqueSuffix()}` });
  return { id: created.id, handle: created.handle, name: created.name };
};

// A fleet (application) created through the SDK, with the fields later tests need.
export const createFleet = async (
  sdk: BalenaSDK,
  organizationId: number,
  label = 'fleet',
  deviceType = deviceTypeSlug,
): Promise<{ id: number; slug: string; name: string; uuid: string }> => {
  const name = `${label}-${uniqueSuffix()}`;
  const created = await sdk.models.application.create({
    name,
    deviceType,
    organization: organizationId,
  });
  return { id: created.id, slug: created.slug, name: created.app_name, uuid: created.uuid };
};

// An ISO date far enough ahead for provisioning and api keys in tests.
export const inOneYear = (): string => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

// A device row as /device/register leaves it, written straight into the database: the device
// model tests (get, rename, tags, variables, move, remove) then do not depend on provisioning,
// which has tests of its own through the SDK's device.register.
export const insertDevice = async (
  server: TestServer,
  fields: { fleetId: number; deviceTypeId: number; userId: number; name?: string },
): Promise<{ id: number; uuid: string; name: string }> => {
  const uuid = randomBytes(16).toString('hex');
  const name = fields.name ?? `device-${uuid.slice(0, 7)}`;
  const { rows } = await server.ctx.db.query<{ id: number }>(
    `INSERT INTO "device"
       ("uuid", "device_name", "is_of__device_type", "belongs_to__application", "belongs_to__user")
     VALUES ($1, $2, $3, $4, $5)
     RETURNING "id"`,
    [uuid, name, fields.deviceTypeId, fields.fleetId, fields.userId],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('device insert returned no id');
  return { id, uuid, name };
};
