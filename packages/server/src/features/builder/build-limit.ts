import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';

// Counts a build against its user (docs/API-LIMITS.md): a build from a URL makes the server
// download up to 20 MiB for them, an uploaded project makes it unpack up to 200 MiB, so a user
// gets a number of each per hour, after which the answer is 429 with Retry-After. Counted once
// the caller may build, before anything is downloaded or unpacked.
export type BuildLimit = (actor: Actor) => Promise<void>;

export type BuildSource = 'url' | 'upload';

const hourMs = 60 * 60 * 1000;

const perHourOf: Record<BuildSource, number> = {
  url: builderLimits.urlBuildsPerHour,
  upload: builderLimits.uploadBuildsPerHour,
};

export const createBuildLimit = (
  ctx: Pick<AppContext, 'db' | 'now'>,
  source: BuildSource,
  perHour: number = perHourOf[source],
): BuildLimit => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  return async (actor) => {
    const who = actor.kind === 'user' ? `user:${actor.userId}` : `actor:${actor.kind}`;
    await limiter.take([{ key: `builder:${source}:${who}`, limit: perHour, windowMs: hourMs }]);
  };
};
