import cors from '@fastify/cors';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { httpStatusOf } from '@flotilla/shared/errors/error-codes';
import { ApiError } from '../errors/api-error.js';
import { type Actor, anonymous } from '../auth/actor.js';
import { allows, type RouteAccess } from './access.js';

// Declaration merging only works with interfaces, hence the two exceptions to the lint rule.
declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyRequest {
    actor: Actor;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export type ActorResolver = (token: string | undefined) => Promise<Actor>;

export type AppOptions = {
  resolveActor: ActorResolver;
  logLevel?: string;
  // Largest accepted request body; documented in README.md.
  bodyLimitBytes?: number;
};

// One registered route and who may call it (docs/ROUTES.md lists them all; route-access.int.test.ts
// compares).
export type DeclaredRoute = { method: string; url: string; access: RouteAccess };

const declaredByApp = new WeakMap<FastifyInstance, DeclaredRoute[]>();

// Every route registered on the app so far, in registration order (complete after `ready()`).
export const declaredRoutes = (app: FastifyInstance): readonly DeclaredRoute[] =>
  declaredByApp.get(app) ?? [];

export const maxUrlLength = 16_384;
export const defaultBodyLimit = 1_048_576;

const bearerToken = (authorization: string | undefined, query: unknown): string | undefined => {
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  // Older clients pass ?apikey=; balena still accepts it.
  if (query && typeof query === 'object' && 'apikey' in query) {
    const value = (query as { apikey: unknown }).apikey;
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
};

const statusOfFastifyError = (error: FastifyError): number =>
  error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;

// Builds the HTTP server: CORS, actor resolution, the per-route access check, and the single
// mapping from errors to responses (text bodies, as balena's API answers).
export const createApp = (options: AppOptions): FastifyInstance => {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: options.bodyLimitBytes ?? defaultBodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxUrlLength },
    // Room for the longest URL we accept plus headers, so an overlong URL gets our clear 400
    // rather than Node's bare 431.
    http: { maxHeaderSize: maxUrlLength + 16_384 },
  });

  void app.register(cors, {
    origin: true,
    credentials: true,
    allowedHeaders: [
      'Content-Type',
      'Authorization',
      'Application-Record-Count',
      'MaxDataServiceVersion',
      'X-Requested-With',
      'X-Balena-Client',
      'If-None-Match',
    ],
    exposedHeaders: ['Retry-After', 'ETag', 'Location'],
    maxAge: 86_400,
  });

  // An empty JSON body (DELETE from some clients) is no body; malformed JSON is a clear 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new ApiError('bad_request', 'The request body is not valid JSON'), undefined);
    }
  });

  // Fastify 5 forbids object defaults on decorators; every request sets it in onRequest below.
  app.decorateRequest('actor');

  const declared: DeclaredRoute[] = [];
  declaredByApp.set(app, declared);
  app.addHook('onRoute', (route) => {
    // HEAD routes are generated from GET ones and inherit their config.
    const methods = [route.method]
      .flat()
      .filter((method) => method !== 'HEAD' && method !== 'OPTIONS');
    if (methods.length === 0) return;
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare its access`);
    }
    for (const method of methods) declared.push({ method, url: route.url, access });
  });

  app.addHook('onRequest', async (request) => {
    request.actor = anonymous;
    if (request.url.length > maxUrlLength) {
      throw new ApiError('bad_request', `URL longer than ${maxUrlLength} characters`);
    }
    const access = request.routeOptions.config.access;
    if (!access) return;
    request.actor = await options.resolveActor(
      bearerToken(request.headers.authorization, request.query),
    );
    if (!allows(access, request.actor)) throw new ApiError('unauthorized', 'Unauthorized');
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) {
        void reply.header('Retry-After', String(error.retryAfterSeconds));
      }
      const status = httpStatusOf[error.code];
      if (status >= 500) request.log.error({ err: error }, error.message);
      return reply.status(status).type('text/plain; charset=utf-8').send(error.message);
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(400)
        .type('text/plain; charset=utf-8')
        .send(`Request body larger than ${options.bodyLimitBytes ?? defaultBodyLimit} bytes`);
    }
    const status = statusOfFastifyError(error);
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).type('text/plain; charset=utf-8').send('Internal server error');
    }
    return reply.status(status).type('text/plain; charset=utf-8').send(error.message);
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .type('text/plain; charset=utf-8')
      .send(`Not found: ${request.method} ${request.url.split('?')[0] ?? ''}`),
  );

  return app;
};
