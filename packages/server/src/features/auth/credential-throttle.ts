import type { Actor } from '../../infra/auth/actor.js';
import { ApiError } from '../../infra/errors/api-error.js';
import type { Config } from '../../infra/config/config.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import {
  rateLimitMessage,
  type RateLimiter,
  type RateLimitTicket,
} from '../../infra/rate-limit/rate-limiter.js';

const windowMs = 60_000;

export const credentialRateLimitMessage = `${rateLimitMessage}: too many wrong passwords from this address`;

// Resolves the password of Basic credentials (an API key or a session token: the git remote, the
// registry's token service) counted like a login from the client address: each attempt is counted
// before the password is checked and uncounted when it proves right, so that past
// FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT wrong ones a minute the address gets 429 with Retry-After
// (nothing checked, so a blocked client learns nothing), while other addresses are unaffected.
export type CredentialResolver = (password: string, clientAddress: string) => Promise<Actor>;

export const createCredentialResolver = (
  resolveActor: ActorResolver,
  limiter: RateLimiter,
  limits: Pick<Config, 'loginAddressRateLimitPerMinute'>,
): CredentialResolver => {
  return async (password, clientAddress) => {
    let ticket: RateLimitTicket;
    try {
      ticket = await limiter.take([
        {
          key: `credential:address:${clientAddress}`,
          limit: limits.loginAddressRateLimitPerMinute,
          windowMs,
        },
      ]);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rate_limited') {
        throw new ApiError('rate_limited', credentialRateLimitMessage, {
          ...(error.retryAfterSeconds === undefined
            ? {}
            : { retryAfterSeconds: error.retryAfterSeconds }),
        });
      }
      throw error;
    }
    let actor: Actor;
    try {
      actor = await resolveActor(password);
    } catch (error) {
      // A wrong password may be refused by a throw (an ApiError: counted); one that could not be
      // checked (the database away) is uncounted.
      if (!(error instanceof ApiError)) await limiter.refund(ticket);
      throw error;
    }
    if (actor.kind !== 'anonymous') await limiter.refund(ticket);
    return actor;
  };
};
