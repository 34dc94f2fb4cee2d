import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { assertCanCreateRelease, startRelease } from './build-release.js';
import { checkProjectUrl, type FetchProjectOptions, resolveWithDns } from './fetch-project.js';
import { parseAllowedNetworks } from './url-address-policy.js';
import { runUrlBuild } from './url-build.js';
import { type BuildLimit, createBuildLimit } from './build-limit.js';
import { visibleFleet } from './visible-fleet.js';

// balena-sdk's release.createFromUrl (wire contract: POST <builderUrl>/v3/buildFromUrl).
const query = z.object({
  owner: z.string().trim().min(1, 'owner (the organization handle) is required').max(200),
  app: z.string().trim().min(1, 'app (the fleet name) is required').max(200),
  // 'true' from balena-sdk; see headlessOnly.
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

// What the answer says: the build goes on after it (headless, as balena-sdk asks).
export const startedMessage = (releaseId: number): string =>
  `Building release ${releaseId}: follow its status and build log at /v7/release(${releaseId})`;

// balena's builder answers at once only when headless (balena-sdk always asks so); without it,
// balena streams the build output instead, which this route does not (the console's streaming
// build is POST /builder/v1/applications/:id/releases).
const headlessOnly =
  'This builder answers headless builds only (headless=true): follow the release for its status and build log';

// Answers as soon as the build can start: the request is valid, the fleet visible (an invisible
// one answers as an unknown one), the caller may create its releases, their URL builds this hour
// counted, the URL's first address allowed, and the release exists (running). Each of these
// refusals is a 4xx that leaves no release. The download and the build run after the answer
// (url-build.ts) and end the release success or failed, with the reason in its build log.
export const registerBuildFromUrl = (
  app: FastifyInstance,
  ctx: AppContext,
  fetchOptions: Omit<FetchProjectOptions, 'onLog'> = fetchOptionsOf(ctx),
  countUrlBuild: BuildLimit = createBuildLimit(ctx, 'url'),
): void => {
  // Builds still running when the server closes are waited for (each ends within the limits).
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.all(running);
  });
  app.post('/v3/buildFromUrl', { config: { access: 'user' } }, async (request) => {
    const { owner, app: appName, headless } = parseBody(query, request.query);
    const { url, shouldFlatten } = parseBody(body, request.body ?? {});
    if (headless === 'false') throw badRequest(headlessOnly);
    if (!/^https?:\/\//i.test(url)) throw badRequest('url must be an http or https URL');
    const fleet = await visibleFleet(ctx, request.actor, { owner, app: appName });
    await assertCanCreateRelease(ctx, request.actor, fleet.id);
    await countUrlBuild(request.actor);
    const source = await checkProjectUrl(url, fetchOptions);
    const releaseId = await startRelease(ctx, request.actor, fleet.id);
    const build = runUrlBuild(ctx, {
      actor: request.actor,
      fleetId: fleet.id,
      releaseId,
      source,
      flatten: shouldFlatten ?? true,
      fetchOptions,
      log: request.log,
    }).finally(() => running.delete(build));
    running.add(build);
    const answer: BuildFromUrlAnswer = {
      started: true,
      releaseId,
      message: startedMessage(releaseId),
    };
    return answer;
  });
};
