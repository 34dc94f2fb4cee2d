import { randomBytes } from 'node:crypto';
import { type BalenaSDK, getSdk } from 'balena-sdk';

// The real balena-sdk against a Flotilla server, as third-party tools use it: a fresh instance
// per user whose token lives in memory only (never ~/.balena).

export const newBalenaSdk = (apiUrl: string): BalenaSDK =>
  getSdk({ apiUrl, dataDirectory: false, isBrowser: false });

export const uniqueSuffix = (): string => randomBytes(4).toString('hex');

export type BalenaUser = { sdk: BalenaSDK; email: string; password: string; token: string };

// Signs a user up through the SDK and logs the instance in with the token it answered.
export const registerBalenaUser = async (apiUrl: string, label: string): Promise<BalenaUser> => {
  const sdk = newBalenaSdk(apiUrl);
  const email = `${label}-${uniqueSuffix()}@example.com`;
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  const token = await sdk.auth.register({ email, password });
  await sdk.auth.loginWithToken(token);
  return { sdk, email, password, token };
};

// The same user on another server (same database and signing secret): its token is enough.
export const sdkWithToken = async (apiUrl: string, token: string): Promise<BalenaSDK> => {
  const sdk = newBalenaSdk(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
};

export type BalenaFleet = { id: number; slug: string; name: string };

// A fleet in the user's first organization (the personal one made at sign-up).
export const createBalenaFleet = async (
  sdk: BalenaSDK,
  label: string,
  deviceType = 'raspberrypi4-64',
): Promise<BalenaFleet> => {
  const [organization] = await sdk.models.organization.getAll({
    $select: ['id'],
    $orderby: { id: 'asc' },
  });
  if (!organization) throw new Error('the new user has no organization');
  const created = await sdk.models.application.create({
    name: `${label}-${uniqueSuffix()}`,
    deviceType,
    organization: organization.id,
  });
  return { id: created.id, slug: created.slug, name: created.app_name };
};

// A provisioning key for the fleet, as `balena device init` / os configure get one.
export const provisioningKeyFor = (sdk: BalenaSDK, fleetId: number): Promise<string> =>
  sdk.models.application.generateProvisioningKey({
    slugOrUuidOrId: fleetId,
    keyExpiryDate: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
    keyName: `e2e-${uniqueSuffix()}`,
  });

export type SdkError = Error & { code?: string; statusCode?: number };

// Awaits a call that must fail and returns its error (balena-errors keep `code` on the
// prototype, so matchers on own properties would miss it).
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

// Polls `read` until `done` holds for its value, at most `timeoutMs`; returns that value or
// throws with the last value seen (or the last error) and `what`. For states that only polling
// can see; the default deadline holds on a busy machine and only bounds a broken test.
export const waitUntil = async <T>(
  what: string,
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 200 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: string = 'nothing yet';
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = JSON.stringify(value);
    } catch (error) {
      last = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
