import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { assertCanCreateRelease, buildRelease } from './build-release.js';
import { type FetchProjectOptions, fetchProject, resolveWithDns } from './fetch-project.js';
import { readProjectArchive } from './project-archive.js';
import { parseAllowedNetworks } from './url-address-policy.js';
import { createUrlBuildLimit, type UrlBuildLimit } from './url-build-limit.js';

// balena-sdk's release.createFromUrl (wire contract: POST <builderUrl>/v3/buildFromUrl).
const query = z.object({
  owner: z.string().trim().min(1, 'owner (the organization handle) is required').max(200),
  app: z.string().trim().min(1, 'app (the fleet name) is required').max(200),
  headless: z.string().max(10).optional(),
});
const body = z.object({
  url: z.string().trim().min(1, 'url is required').max(2048),
  shouldFlatten: z.boolean().optional(),
});

export type BuildFromUrlAnswer = { started: true; releaseId: number; message: string };

// How project URLs are downloaded on this server (the operator's allowed networks, the limits).
export const fetchOptionsOf = (
  ctx: AppContext,
  resolve = resolveWithDns,
): Omit<FetchProjectOptions, 'onLog'> => ({
  allowed: parseAllowedNetworks(ctx.config.builderAllowedNetworks),
  resolve,
  timeoutMs: builderLimits.fetchTimeoutMs,
  maxBytes: builderLimits.projectBytes,
  maxRedirects: builderLimits.maxRedirects,
});

const fleetIdOf = async (ctx: AppContext, owner: string, app: string): Promise<number> => {
  const found = await ctx.db.query<{ id: number }>(
    `SELECT a."id" FROM "application" a JOIN "organization" o ON o."id" = a."organization"
     WHERE lower(o."handle") = lower($1) AND lower(a."app_name") = lower($2) LIMIT 1`,
    [owner, app],
  );
  const id = found.rows[0]?.id;
  if (id === undefined) throw notFound(`Fleet ${owner}/${app} not found`);
  return id;
};

// Downloads the tarball (checked: who may build, how many URL builds they started this hour,
// then where it comes from), then runs the
// compose builder. The answer comes once the build has ended; any refusal is a 4xx and leaves no
// release behind.
export const registerBuildFromUrl = (
  app: FastifyInstance,
  ctx: AppContext,
  fetchOptions: Omit<FetchProjectOptions, 'onLog'> = fetchOptionsOf(ctx),
  countUrlBuild: UrlBuildLimit = createUrlBuildLimit(ctx),
): void => {
  app.post('/v3/buildFromUrl', { config: { access: 'user' } }, async (request) => {
    const { owner, app: appName } = parseBody(query, request.query);
    const { url } = parseBody(body, request.body ?? {});
    if (!/^https?:\/\//i.test(url)) throw badRequest('url must be an http or https URL');
    const fleetId = await fleetIdOf(ctx, owner, appName);
    await assertCanCreateRelease(ctx, request.actor, fleetId);
    await countUrlBuild(request.actor);
    const archive = await fetchProject(url, fetchOptions);
    const files = await readProjectArchive(archive);
    const result = await buildRelease(ctx, request.actor, fleetId, files);
    const answer: BuildFromUrlAnswer = {
      started: true,
      releaseId: result.releaseId,
      message: result.log.at(-1) ?? '',
    };
    return answer;
  });
};
