import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import { httpStatusOf } from '@flotilla/shared/errors/error-codes';
import { ApiError } from '../errors/api-error.js';
import { mapDatabaseError } from '../odata/database-errors.js';
import { type Actor, anonymous } from '../auth/actor.js';
import { fastifyTrustProxy, type TrustProxy } from '../config/trust-proxy.js';
import { databaseRetryAfterSeconds, isDatabaseUnavailable } from '../db/connection-errors.js';
import { type LogFormat, loggerOptions } from '../logging/logger-options.js';
import { QuietRequestLog, requestChildLogger } from '../logging/request-log.js';
import { allows, type RouteAccess } from './access.js';
import { gateUnverifiedUser, type UnverifiedUserAccess } from './email-verification-gate.js';
import { jsonDepthMessage, jsonNestsDeeperThan, maxJsonDepth } from './json-depth.js';
import {
  headersHaveNul,
  jsonHasNul,
  jsonTextMayHaveNul,
  nulInBodyMessage,
  nulInHeaderMessage,
  nulInUrlMessage,
  urlHasNul,
} from './nul-guard.js';
import type { CorsOrigins } from '../config/cors-origins.js';
import { registerCompression } from './compression.js';
import { deviceProtocolCorsHeaders, registerCors } from './cors.js';
import { fastAnswersServer } from './fast-answers.js';
import { redactingLoggerOptions } from './log-redaction.js';
import { deviceProtocolSecurityHeaders, registerSecurityHeaders } from './security-headers.js';

// Declaration merging only works with interfaces, hence the two exceptions to the lint rule.
declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyRequest {
    actor: Actor;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyContextConfig {
    access?: RouteAccess;
    // The handler takes JSON strings with NUL itself (device log lines drop it), so the body's
    // NUL guard is skipped.
    acceptsNul?: boolean;
    // What a user whose e-mail address is still unverified may do here (email-verification-gate.ts).
    unverifiedUsers?: UnverifiedUserAccess;
    // A public route whose Authorization header carries its own credential (a metrics scrape's
    // token), not a Flotilla session or key: the caller stays anonymous instead of being refused.
    ownCredential?: boolean;
    // A device-protocol answer, read by supervisors, agents and the SDK, never rendered by a
    // browser: nosniff alone of the security headers, CORS only for a request with an Origin
    // header (security-headers.ts, cors.ts).
    deviceProtocol?: boolean;
    // The CORS plugin's options for this route (set by cors.ts for device-protocol routes).
    cors?: FastifyCorsOptions;
  }
}

export type ActorResolver = (token: string | undefined) => Promise<Actor>;

export type AppOptions = {
  resolveActor: ActorResolver;
  logLevel?: string;
  // Default json (tests, collectors); the server resolves FLOTILLA_LOG_FORMAT.
  logFormat?: LogFormat;
  // Largest accepted request body; documented in README.md.
  bodyLimitBytes?: number;
  // Proxies trusted for X-Forwarded-For (FLOTILLA_TRUST_PROXY); none by default.
  trustProxy?: TrustProxy;
  // Browser origins allowed to call from elsewhere (default: any, without credentials).
  corsOrigins?: CorsOrigins;
  // Where log lines go (default stdout); tests capture them.
  logStream?: { write(line: string): void };
  // The actor cache, read without I/O: with it, fast routes may answer before the framework
  // (fast-answers.ts).
  cachedActor?: (token: string) => Actor | undefined;
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

// Builds the HTTP server: transport (headers, CORS, compression), actor resolution, the
// per-route access check, and the single mapping from errors to responses (text bodies, as
// balena's API answers).
export const createApp = (options: AppOptions): FastifyInstance => {
  const http = { maxHeaderSize: maxUrlLength + 16_384 };
  const corsOrigins: CorsOrigins = options.corsOrigins ?? { kind: 'any' };
  // Fast answers are device-protocol answers to requests without Origin (fast-answers.ts).
  const fast = options.cachedActor
    ? fastAnswersServer(
        {
          cachedActor: options.cachedActor,
          transportHeaders: { ...deviceProtocolSecurityHeaders, ...deviceProtocolCorsHeaders },
        },
        http,
      )
    : undefined;
  const app = Fastify({
    ...(fast ? { serverFactory: fast.serverFactory } : {}),
    logger: {
      ...loggerOptions(options.logLevel ?? 'info', options.logFormat ?? 'json'),
      ...redactingLoggerOptions,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Request lines at debug only (request-log.ts).
    logController: new QuietRequestLog(),
    childLoggerFactory: requestChildLogger,
    bodyLimit: options.bodyLimitBytes ?? defaultBodyLimit,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxUrlLength },
    // Room for the longest URL we accept plus headers, so an overlong URL gets our clear 400
    // rather than Node's bare 431.
    http,
    // A URL the router cannot decode (bad percent-encoding) is a 400 in our words. Fastify
    // answers these before any hook runs (its default is a JSON body), so this writes directly.
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'The URL is not validly percent-encoded'
          : 'The URL could not be routed';
      reply.raw.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      reply.raw.end(message);
    },
  });

  fast?.attach(app);

  // A route only devices may call (their state and tag reports, their logs) answers the device
  // protocol too, like the target state that declares it: nothing a browser renders.
  app.addHook('onRoute', (route) => {
    if (route.config?.access === 'device' && route.config.deviceProtocol === undefined) {
      route.config = { ...route.config, deviceProtocol: true };
    }
  });
  // Transport: security headers, CORS, response compression (each in its own file).
  registerSecurityHeaders(app);
  registerCors(app, corsOrigins);
  registerCompression(app);

  // An empty JSON body (DELETE from some clients) is no body; malformed JSON is a clear 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (jsonNestsDeeperThan(text, maxJsonDepth)) {
      return done(new ApiError('bad_request', jsonDepthMessage), undefined);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ApiError('bad_request', 'The request body is not valid JSON'), undefined);
    }
    if (!request.routeOptions.config.acceptsNul && jsonTextMayHaveNul(text) && jsonHasNul(parsed)) {
      return done(new ApiError('bad_request', nulInBodyMessage), undefined);
    }
    done(null, parsed);
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
    if (urlHasNul(request.url)) throw new ApiError('bad_request', nulInUrlMessage);
    if (headersHaveNul(request.headers)) throw new ApiError('bad_request', nulInHeaderMessage);
    const { access, ownCredential } = request.routeOptions.config;
    if (!access) return;
    if (access === 'public' && ownCredential === true) return;
    request.actor = await options.resolveActor(
      bearerToken(request.headers.authorization, request.query),
    );
    if (!allows(access, request.actor)) throw new ApiError('unauthorized', 'Unauthorized');
  });

  // After the body is parsed: the /v7 exception reads it (requestVerificationEmail's PATCH).
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (config.access) gateUnverifiedUser(request, config.access, config.unverifiedUsers);
  });

  app.setErrorHandler((thrown: FastifyError | ApiError, request, reply) => {
    // A PostgreSQL error that a client's input caused, on any route, is a 4xx in our words.
    const mapped = mapDatabaseError(thrown);
    const error = mapped instanceof ApiError ? mapped : thrown;
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) {
        void reply.header('Retry-After', String(error.retryAfterSeconds));
      }
      const status = httpStatusOf[error.code];
      if (status >= 500) request.log.error({ err: error }, error.message);
      return reply.status(status).type('text/plain; charset=utf-8').send(error.message);
    }
    // PostgreSQL unreachable (stopped, restarting, network cut): not our bug, and it passes.
    if (isDatabaseUnavailable(error)) {
      request.log.debug({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(databaseRetryAfterSeconds))
        .type('text/plain; charset=utf-8')
        .send('The database is unavailable; try again shortly');
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
