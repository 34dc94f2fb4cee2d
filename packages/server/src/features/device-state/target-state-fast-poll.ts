import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { FastRoute } from '../../infra/http/fast-answers.js';
import { matchesIfNoneMatch } from './target-state-body.js';
import type { TargetStateCache } from './target-state-cache.js';

export const deviceTargetV3Route = '/device/v3/:uuid/state';

// The ETag to answer 304 with when a device presents the one this process last served it and
// nothing its target is built from changed since (target-state-cache.ts); the poll is the
// device's heartbeat, so the contact is recorded. Undefined when the target must be built.
export const cachedNotModified = (
  ctx: Pick<AppContext, 'contacts' | 'now'>,
  cache: TargetStateCache,
  actor: Actor,
  uuid: string,
  ifNoneMatch: string | undefined,
): string | undefined => {
  if (actor.kind !== 'device' || ifNoneMatch === undefined) return undefined;
  const known = cache.lookup(uuid);
  // A device key reads its own device only (the rule findPermittedDevice applies).
  if (known?.deviceId !== actor.deviceId || !matchesIfNoneMatch(ifNoneMatch, known.etag)) {
    return undefined;
  }
  ctx.contacts.record(known.deviceId, ctx.now());
  return known.etag;
};

// Only plain uuids: one that needs percent-decoding goes to the framework's route.
const pollPath = /^\/device\/v3\/([\w-]{1,100})\/state$/;

export const notModifiedHeaders = (etag: string) => ({ etag, 'cache-control': 'no-cache' });

// The same 304 as the framework's route, answered before the framework (fast-answers.ts).
export const targetStateFastPoll = (
  ctx: Pick<AppContext, 'contacts' | 'now'>,
  cache: TargetStateCache,
): FastRoute => ({
  url: deviceTargetV3Route,
  access: 'any-actor',
  answer(path, headers, actor) {
    const uuid = pollPath.exec(path)?.[1];
    if (uuid === undefined) return undefined;
    const etag = cachedNotModified(ctx, cache, actor, uuid, headers['if-none-match']);
    return etag === undefined ? undefined : { status: 304, headers: notModifiedHeaders(etag) };
  },
});
