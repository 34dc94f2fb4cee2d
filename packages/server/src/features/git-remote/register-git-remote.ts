import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { createActorResolver } from '../../infra/auth/resolve-actor.js';
import { ApiError, badRequest, unauthorized } from '../../infra/errors/api-error.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import { verifyEmailFirstMessage } from '../../infra/http/email-verification-gate.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createCredentialResolver, type CredentialResolver } from '../auth/credential-throttle.js';
import { type BuildLimit, createBuildLimit } from '../builder/build-limit.js';
import { assertCanCreateRelease } from '../builder/build-release.js';
import { visibleFleet } from '../builder/visible-fleet.js';
import {
  createFleetRepositories,
  type RemoteFleet,
  repositoriesDir,
  repositoryName,
} from './fleet-repository.js';
import {
  createGitCommand,
  type GitCommand,
  gitConfigEnvironment,
  gitEnvironment,
} from './git-command.js';
import { type HookChannel, openHookChannel } from './hook-channel.js';
import { runHttpBackend } from './http-backend.js';
import { pushBuildHandler } from './push-build.js';

export const gitHooksDir = fileURLToPath(new URL('../../../git-hooks/', import.meta.url));

// git skips a hook it cannot execute and would accept a push without building it: such a server
// refuses pushes instead (a copy of Flotilla that lost the file's mode).
const hookReady = (hooksDir: string): Promise<boolean> =>
  access(path.join(hooksDir, 'pre-receive'), constants.X_OK).then(
    () => true,
    () => false,
  );

export const hookMissingMessage =
  "The git remote's pre-receive hook (packages/server/git-hooks/pre-receive) is not executable on this server";

export const gitMissingMessage =
  'git is not installed on this server: install it (Debian/Ubuntu: apt-get install git) and restart Flotilla';

// A push (or fetch) ends within this; a build on push needs no download, so it is quick.
const requestTimeoutMs = 10 * 60_000;
// The pack itself is bounded by receive.maxInputSize; this leaves room for the ref commands.
const maxBodyBytes = builderLimits.projectBytes + 1024 * 1024;

const challenge = 'Basic realm="Flotilla git", charset="UTF-8"';

const services = ['git-receive-pack', 'git-upload-pack'] as const;
type Service = (typeof services)[number];

const name = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.-]+$/, 'not a fleet name');
const params = z.object({ owner: name, repo: name });
const refsQuery = z.looseObject({
  service: z.enum(services, {
    error: 'This remote speaks git smart HTTP only: use git 1.6.6 or later',
  }),
});

const requestTypes = services.map((service) => `application/x-${service}-request`);

const slugOf = (request: FastifyRequest): string => {
  const { owner, repo } = parseBody(params, request.params);
  return `${owner}/${repo.replace(/\.git$/i, '')}`;
};

// Basic credentials (any username; the password is an API key or a session token, wrong ones
// rate-limited by client address), or a Bearer token the app already resolved.
const actorOf = async (request: FastifyRequest, resolve: CredentialResolver): Promise<Actor> => {
  const header = request.headers.authorization ?? '';
  const actor = /^basic /i.test(header)
    ? await resolve(passwordOf(header), clientAddressKey(request.ip))
    : request.actor;
  if (actor.kind !== 'user')
    throw unauthorized('Sign in: use an API key or session token as the password');
  if (actor.twoFactorPending) throw unauthorized('Complete two-factor authentication first');
  // As on every route that is not theirs yet (email-verification-gate.ts).
  if (actor.emailVerificationPending) throw unauthorized(verifyEmailFirstMessage);
  return actor;
};

const passwordOf = (header: string): string => {
  const decoded = Buffer.from(header.slice('basic '.length).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  if (password === '')
    throw unauthorized('The credentials need a password: an API key or session token');
  return password;
};

const usernameOf = async (ctx: AppContext, actor: Actor): Promise<string> => {
  if (actor.kind !== 'user') return 'anonymous';
  const { rows } = await ctx.db.query<{ username: string }>(
    'SELECT "username" FROM "user" WHERE "id" = $1',
    [actor.userId],
  );
  return rows[0]?.username ?? `user_${actor.userId}`;
};

const refuse = (reply: FastifyReply, status: number, message: string): FastifyReply =>
  reply.status(status).type('text/plain; charset=utf-8').send(message);

export type GitRemoteOptions = {
  resolveActor?: ActorResolver;
  // The git executable (tests name a missing one).
  git?: GitCommand;
  // The hooks git runs (packages/server/git-hooks; tests name a broken copy).
  hooksDir?: string;
  // Counts each push that builds against the pusher (default: with the builder's uploads).
  countBuild?: BuildLimit;
};

// A git remote per fleet over smart HTTP (`git push <server>/git/<org>/<fleet>.git main`): the
// system's `git http-backend` serves the fleet's bare repository in the data directory, and its
// pre-receive hook builds the pushed commit with the compose builder (push-build.ts), the build
// log going back to the pushing client. Only users who may create releases of the fleet push or
// fetch.
export const registerGitRemote = (
  app: FastifyInstance,
  ctx: AppContext,
  options: GitRemoteOptions = {},
): void => {
  const resolveCredential = createCredentialResolver(
    options.resolveActor ?? createActorResolver(ctx),
    createRateLimiter(ctx.db, ctx.now),
    ctx.config,
  );
  const git = options.git ?? createGitCommand();
  const countBuild = options.countBuild ?? createBuildLimit(ctx, 'upload');
  const repositories = createFleetRepositories(ctx.config.dataDir, git);
  const hooksDir = options.hooksDir ?? gitHooksDir;
  const hooks = hookReady(hooksDir);

  // Checks in the order a client needs them: git present, a signed-in user, the fleet, the right.
  // A fleet the user cannot see answers as an unknown one; one they see but may not create
  // releases of says so (403).
  const admit = async (
    request: FastifyRequest,
  ): Promise<{ actor: Actor; fleet: RemoteFleet } | { status: number; message: string }> => {
    const slug = slugOf(request);
    if (!(await git.available())) return { status: 503, message: gitMissingMessage };
    if (!(await hooks)) return { status: 503, message: hookMissingMessage };
    const actor = await actorOf(request, resolveCredential);
    const fleet = await visibleFleet(ctx, actor, { slug });
    try {
      await assertCanCreateRelease(ctx, actor, fleet.id);
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'unauthorized' || error.code === 'forbidden')
      ) {
        return {
          status: 403,
          message: `You may not push to fleet ${fleet.slug}: pushing creates releases, which your role does not allow`,
        };
      }
      throw error;
    }
    return { actor, fleet };
  };

  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    service: Service,
    endpoint: 'info/refs' | Service,
  ): Promise<FastifyReply> => {
    const admitted = await admit(request);
    if ('status' in admitted) return refuse(reply, admitted.status, admitted.message);
    const { actor, fleet } = admitted;
    const repository = await repositories.ensure(fleet);
    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > maxBodyBytes) {
      throw badRequest(`The push is larger than ${builderLimits.projectBytes / 1024 / 1024} MiB`);
    }
    // Only a push's own POST runs the hook, so only it opens a channel for it.
    const channel: HookChannel | undefined =
      endpoint === 'git-receive-pack'
        ? await openHookChannel(
            pushBuildHandler({
              ctx,
              git,
              actor,
              fleet,
              repository,
              countBuild,
              log: request.log,
            }),
          )
        : undefined;
    const contentType = request.headers['content-type'];
    const encoding = request.headers['content-encoding'];
    const protocol = request.headers['git-protocol'];
    const run = runHttpBackend({
      binary: git.binary,
      body: request.body instanceof Readable ? request.body : undefined,
      maxBodyBytes,
      timeoutMs: requestTimeoutMs,
      onStderr: (text) => request.log.warn({ stderr: text.slice(0, 2000) }, 'git http-backend'),
      env: gitEnvironment({
        GIT_PROJECT_ROOT: repositoriesDir(ctx.config.dataDir),
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${repositoryName(fleet.uuid)}/${endpoint}`,
        REQUEST_METHOD: request.method,
        QUERY_STRING: endpoint === 'info/refs' ? `service=${service}` : '',
        REMOTE_USER: await usernameOf(ctx, actor),
        REMOTE_ADDR: request.ip,
        ...(typeof contentType === 'string' && requestTypes.includes(contentType)
          ? { CONTENT_TYPE: contentType }
          : {}),
        ...(length !== undefined && /^\d+$/.test(length) ? { CONTENT_LENGTH: length } : {}),
        ...(encoding === 'gzip' ? { HTTP_CONTENT_ENCODING: 'gzip' } : {}),
        ...(typeof protocol === 'string' && /^[\w=:.,-]{1,100}$/.test(protocol)
          ? { GIT_PROTOCOL: protocol }
          : {}),
        ...gitConfigEnvironment([
          ['http.receivepack', 'true'],
          ['core.hooksPath', hooksDir],
          ['receive.fsckObjects', 'true'],
          ['receive.maxInputSize', String(builderLimits.projectBytes)],
        ]),
        ...(channel?.env ?? {}),
      }),
    });
    void run.finished.then(() => channel?.close());
    // The client went away mid-answer: git and its hook stop too.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) run.stop();
    });
    let response;
    try {
      response = await run.response;
    } catch (error) {
      run.stop();
      throw error;
    }
    return reply.status(response.status).headers(response.headers).send(response.body);
  };

  void app.register(async (scoped) => {
    // The body goes to git as it arrives (http-backend.ts bounds it).
    scoped.addContentTypeParser(requestTypes, (_request, payload, done) => done(null, payload));
    const config = { access: 'public' } as const;
    // git retries with credentials only after a 401 that says how to send them.
    const onSend = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode === 401) void reply.header('WWW-Authenticate', challenge);
      return payload;
    };
    scoped.get('/git/:owner/:repo/info/refs', { config, onSend }, async (request, reply) => {
      const { service } = parseBody(refsQuery, request.query);
      return await serve(request, reply, service, 'info/refs');
    });
    for (const service of services) {
      scoped.post(`/git/:owner/:repo/${service}`, { config, onSend }, async (request, reply) =>
        serve(request, reply, service, service),
      );
    }
  });
};
