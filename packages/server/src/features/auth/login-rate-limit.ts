import type { Config } from '../../infra/config/config.js';
import type { RateLimitBucket, RateLimiter } from '../../infra/rate-limit/rate-limiter.js';

const windowMs = 60_000;
const maxNameLength = 255;

export type LoginLimits = Pick<
  Config,
  'loginRateLimitPerMinute' | 'loginAccountRateLimitPerMinute' | 'loginAddressRateLimitPerMinute'
>;

// Whose bucket an attempt counts in: the account the typed name resolves to, so its e-mail and
// its username share one bucket; a name that is no account counts as typed (trimmed, lower-case),
// so the limiter answers alike whether or not an account exists.
export const loginAccountKey = (userId: number | undefined, typedName: string): string =>
  userId !== undefined
    ? `user:${userId}`
    : `name:${typedName.trim().toLowerCase().slice(0, maxNameLength)}`;

// The policy (docs/API-LIMITS.md), all over a sliding minute:
// - per account from one client address: FLOTILLA_LOGIN_RATE_LIMIT, so whoever floods an account
//   from their address locks out that address only;
// - per account from all addresses: FLOTILLA_LOGIN_ACCOUNT_RATE_LIMIT, a higher ceiling against
//   attacks spread over many addresses;
// - per client address over all accounts: FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT, against one address
//   trying passwords on many accounts.
export const loginBuckets = (
  limits: LoginLimits,
  account: string,
  address: string,
): RateLimitBucket[] => [
  {
    key: `login:account-address:${account}|${address}`,
    limit: limits.loginRateLimitPerMinute,
    windowMs,
  },
  { key: `login:account:${account}`, limit: limits.loginAccountRateLimitPerMinute, windowMs },
  { key: `login:address:${address}`, limit: limits.loginAddressRateLimitPerMinute, windowMs },
];

export type LoginAttempt = {
  // The password was right: the attempt is uncounted, with the earlier failures of this account
  // from this address (the owner's own typos).
  succeeded(): Promise<void>;
};

export type LoginThrottle = {
  // Counts the attempt before the password is checked, so concurrent attempts can never check
  // more passwords than the limits allow; throws 429 (nothing counted) when a bucket is full.
  begin(account: string, address: string): Promise<LoginAttempt>;
};

export const createLoginThrottle = (limiter: RateLimiter, limits: LoginLimits): LoginThrottle => ({
  async begin(account, address) {
    const buckets = loginBuckets(limits, account, address);
    const ticket = await limiter.take(buckets);
    return {
      async succeeded() {
        await limiter.refund(ticket);
        const [ownAddress] = buckets;
        if (ownAddress) await limiter.clear(ownAddress.key);
      },
    };
  },
});
