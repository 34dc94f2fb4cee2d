import type { Actor } from '../../infra/auth/actor.js';
import { ApiError } from '../../infra/errors/api-error.js';
import type { Config } from '../../infra/config/config.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import { rateLimitMessage, type RateLimiter } from '../../infra/rate-limit/rate-limiter.js';

const windowMs = 60_000;

export const credentialRateLimitMessage = `${rateLimitMessage}: too many wrong passwords from this address`;

// Resolves the password of Basic credentials (an API key or a session token: the git remote, the
// registry's token service) with wrong ones counted against the client address: past
// FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT wrong ones a minute the address gets 429 with Retry-After,
// nothing checked, so a blocked client learns nothing; other addresses are unaffected.
// Only failures are counted, after the check: devices behind one address fetch registry tokens
// by the hundred when a release rolls out, and a right password costs one read here, no lock and
// no write. Wrong guesses sent at the same moment can pass the first check together, so an
// address may get a few more than the limit, bounded by its concurrent requests.
export type CredentialResolver = (password: string, clientAddress: string) => Promise<Actor>;

const asCredentialRefusal = (error: unknown): unknown =>
  error instanceof ApiError && error.code === 'rate_limited'
    ? new ApiError('rate_limited', credentialRateLimitMessage, {
        ...(error.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: error.retryAfterSeconds }),
      })
    : error;

export const createCredentialResolver = (
  resolveActor: ActorResolver,
  limiter: RateLimiter,
  limits: Pick<Config, 'loginAddressRateLimitPerMinute'>,
): CredentialResolver => {
  return async (password, clientAddress) => {
    const buckets = [
      {
        key: `credential:address:${clientAddress}`,
        limit: limits.loginAddressRateLimitPerMinute,
        windowMs,
      },
    ];
    const countFailure = async (): Promise<void> => {
      await limiter.take(buckets).catch((error: unknown) => {
        throw asCredentialRefusal(error);
      });
    };
    await limiter.check(buckets).catch((error: unknown) => {
      throw asCredentialRefusal(error);
    });
    let actor: Actor;
    try {
      actor = await resolveActor(password);
    } catch (error) {
      // A wrong password may be refused by a throw (an ApiError: counted); one that could not be
      // checked (the database away) is not counted.
      if (error instanceof ApiError) await countFailure();
      throw error;
    }
    if (actor.kind === 'anonymous') await countFailure();
    return actor;
  };
};
