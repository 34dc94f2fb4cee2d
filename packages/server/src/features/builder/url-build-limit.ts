import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';

// Counts a build from a URL against its user (README "API limits"): each one makes the server
// download up to 20 MiB for them, so a user gets a number per hour, after which the answer is
// 429 with Retry-After. Counted once the caller may build, before anything is downloaded.
export type UrlBuildLimit = (actor: Actor) => Promise<void>;

const hourMs = 60 * 60 * 1000;

export const createUrlBuildLimit = (
  ctx: Pick<AppContext, 'db' | 'now'>,
  perHour: number = builderLimits.urlBuildsPerHour,
): UrlBuildLimit => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  return async (actor) => {
    const who = actor.kind === 'user' ? `user:${actor.userId}` : `actor:${actor.kind}`;
    await limiter.take([{ key: `builder:url:${who}`, limit: perHour, windowMs: hourMs }]);
  };
};
