import type { FastifyInstance } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { Queryable } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';

// Which requests may read from the read replica (infra/db/read-routing.ts): signed-in people's
// data API reads only. Devices (the device protocol), fleet API keys and anonymous callers
// always read the primary, and every write goes to the primary whatever the request.

// The reader a request's reads are routed for; undefined: the primary only.
export const readerOf = (actor: Actor | undefined): string | undefined =>
  actor?.kind === 'user' ? `user:${actor.userId}` : undefined;

// Where this request's reads go: the replica when the routing allows it, else `primary`.
export const readDatabaseFor = (
  routing: ReadRouting | undefined,
  primary: Queryable,
  actor: Actor,
): Queryable => (routing ? routing.readerFor(readerOf(actor)) : primary);

const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

// A person who has just written reads the primary until the replica has their write: every
// answered request of theirs that may write (any method but GET, HEAD, OPTIONS; the $batch of
// reads excepted) is recorded before its answer leaves.
export const registerReadYourWrites = (
  app: FastifyInstance,
  routing: ReadRouting,
  readOnlyUrls: readonly string[],
): void => {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (readOnlyMethods.has(request.method)) return payload;
    if (readOnlyUrls.includes(request.routeOptions.url ?? '')) return payload;
    const reader = readerOf(request.actor);
    if (reader !== undefined) routing.wrote(reader);
    return payload;
  });
};
