import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { resolveWithDns } from '../builder/fetch-project.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { lookUpRepositoryContract, type RepositoryLookup } from './repository-contract.js';

const query = z.object({
  url: z.string().trim().min(1, 'url (the repository URL) is required').max(2048),
});

// How this server reaches the code host (its configuration, DNS for host names).
export const repositoryLookupOf = (
  ctx: AppContext,
  resolve = resolveWithDns,
): RepositoryLookup => ({
  host: ctx.config.codeHost,
  fetch: {
    allowed: parseAllowedNetworks(ctx.config.codeHost.allowedNetworks),
    resolve,
    timeoutMs: ctx.config.codeHost.timeoutMs,
  },
});

// Lookups a user may make per minute: a dialog makes one per repository URL typed, and the
// server's address is what the code host counts (GitHub allows 60 unauthenticated calls an hour).
export const lookupsPerMinute = 30;

// The console's code-host lookups go through the server, so that the browser needs no access to
// the code host and the server's own network stays out of reach (only public addresses).
// Signed-in users only: each call makes the server fetch from the code host.
export const registerCodeHost = (
  app: FastifyInstance,
  ctx: AppContext,
  lookup: RepositoryLookup = repositoryLookupOf(ctx),
  limit = lookupsPerMinute,
): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  app.get('/code-host/v1/repository-contract', { config: { access: 'user' } }, async (request) => {
    const { url } = parseBody(query, request.query);
    const { actor } = request;
    if (actor.kind === 'user') {
      await limiter.take([{ key: `code-host:user:${actor.userId}`, limit, windowMs: 60_000 }]);
    }
    return lookUpRepositoryContract(url, lookup);
  });
};
