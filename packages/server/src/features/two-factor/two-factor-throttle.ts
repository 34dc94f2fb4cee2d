import type { RateLimitBucket, RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import type { LoginLimits } from '../auth/login-rate-limit.js';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

// Code attempts one account may make per hour from all addresses together. A 6-digit code
// accepted within one step either way leaves 3 good codes in a million: 30 tries an hour give a
// guesser about 0.2% a day, where the login limits (100 a minute) would give 40%.
export const twoFactorAccountLimitPerHour = 30;

// The buckets of one code attempt (docs/API-LIMITS.md): per account from one address with the
// login limit (FLOTILLA_LOGIN_RATE_LIMIT a minute), per account overall
// (twoFactorAccountLimitPerHour), per address over all accounts (FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT
// a minute). Authenticator and recovery codes count in the same buckets.
export const twoFactorBuckets = (
  limits: LoginLimits,
  userId: number,
  address: string,
): RateLimitBucket[] => [
  {
    key: `two-factor:account-address:${userId}|${address}`,
    limit: limits.loginRateLimitPerMinute,
    windowMs: minuteMs,
  },
  {
    key: `two-factor:account:${userId}`,
    limit: twoFactorAccountLimitPerHour,
    windowMs: hourMs,
  },
  {
    key: `two-factor:address:${address}`,
    limit: limits.loginAddressRateLimitPerMinute,
    windowMs: minuteMs,
  },
];

export type TwoFactorThrottle = {
  // Counts the attempt before the code is checked (429 when a bucket is full); the returned
  // function uncounts it once the code was right.
  begin(userId: number, address: string): Promise<() => Promise<void>>;
};

export const createTwoFactorThrottle = (
  limiter: RateLimiter,
  limits: LoginLimits,
): TwoFactorThrottle => ({
  async begin(userId, address) {
    const ticket = await limiter.take(twoFactorBuckets(limits, userId, address));
    return () => limiter.refund(ticket);
  },
});
