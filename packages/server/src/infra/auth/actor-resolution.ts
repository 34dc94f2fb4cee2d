import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { NotificationBus } from '../db/notification-bus.js';
import type { ActorResolver } from '../http/create-app.js';
import type { Actor } from './actor.js';
import { type ActorCache, createActorCache } from './actor-cache.js';
import { type ActorCacheFeed, feedActorCache } from './actor-cache-feed.js';
import { type ActorResolverDeps, createActorResolver } from './resolve-actor.js';

// Room for every device of a large installation (100,000 and more) and its users, as in the
// target-state cache; an entry takes about 0.5 kB.
export const actorCacheMaxEntries = 200_000;

export type ActorResolution = {
  resolveActor: ActorResolver;
  // The actor of a token when the cache holds it, without I/O (infra/http/fast-answers.ts).
  cachedActor(token: string): Actor | undefined;
  // Keeps the cache fed, for the app's lifetime, from the bus and this process's own changes.
  attach(app: FastifyInstance, bus: Pick<NotificationBus, 'listen'>): void;
};

type Attached = { cache: ActorCache; feed: ActorCacheFeed };
const attached = new WeakMap<FastifyInstance, Attached>();

// The actor resolver of an app, with its cache (FLOTILLA_AUTH_CACHE_SECONDS, and
// FLOTILLA_DEVICE_AUTH_CACHE_SECONDS for device keys).
export const createActorResolution = (
  ctx: ActorResolverDeps & {
    db: Database;
    config: Pick<Config, 'authCacheSeconds' | 'deviceAuthCacheSeconds'>;
  },
): ActorResolution => {
  const cache = createActorCache({
    ttlMs: ctx.config.authCacheSeconds * 1000,
    deviceTtlMs: ctx.config.deviceAuthCacheSeconds * 1000,
    maxEntries: actorCacheMaxEntries,
  });
  return {
    resolveActor: createActorResolver(ctx, cache),
    cachedActor: (token) => (token === '' ? undefined : cache.lookup(token, ctx.now())),
    attach(app, bus) {
      const feed = feedActorCache(cache, bus, ctx.db);
      attached.set(app, { cache, feed });
      app.addHook('onClose', async () => feed.close());
    },
  };
};

// The actor cache of an app and its feed (tests wait on invalidations from other processes).
export const actorCacheOf = (app: FastifyInstance): Attached | undefined => attached.get(app);
