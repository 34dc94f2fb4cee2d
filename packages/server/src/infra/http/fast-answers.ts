import { createServer, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactory } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { allows, type RouteAccess } from './access.js';
import { headersHaveNul, urlHasNul } from './nul-guard.js';

// Answers a few hot requests from memory before the framework sees them: a device polling its
// target state with the ETag it has (304) is most of what a fleet sends, and the framework's
// routing, hooks and reply objects cost more than the answer itself (bench, BENCH_CPU_PROFILE).
// Only what needs no hook qualifies: a GET without query string or Origin header, whose bearer
// token the actor cache already resolved (revocations drop it there, actor-cache-feed.ts), and
// that the route can answer without a body. Anything else — a cache miss, a NUL anywhere, debug
// logging on — goes to the framework, which answers it the usual way. A fast route answers for
// a device-protocol route (route config `deviceProtocol`): its answer carries the transport
// headers the framework's hooks set there for a request without Origin (nosniff, Vary), and is
// counted by the same metrics (observeFastAnswers).

export type FastAnswer = { status: number; headers: Readonly<Record<string, string>> };

export type FastRoute = {
  // The framework route it answers for (metrics label), whose access rule it keeps; a
  // device-protocol route (its answers carry FastAnswersOptions.transportHeaders).
  url: string;
  access: RouteAccess;
  // An answer from memory, or undefined to leave the request to the framework.
  answer(path: string, headers: IncomingHttpHeaders, actor: Actor): FastAnswer | undefined;
};

export type FastAnswerObserver = (
  route: string,
  method: string,
  status: number,
  seconds: number,
) => void;

export type FastAnswersOptions = {
  // The cached actor of a bearer token, without any I/O; undefined when it is not cached.
  cachedActor: (token: string) => Actor | undefined;
  // Headers every answer carries: a device-protocol answer's (security-headers.ts, cors.ts).
  transportHeaders: Readonly<Record<string, string>>;
};

type FastAnswers = {
  routes: FastRoute[];
  observers: FastAnswerObserver[];
  log?: FastifyBaseLogger;
};

const byApp = new WeakMap<FastifyInstance, FastAnswers>();

// Longer paths are never one of ours.
const maxPathLength = 256;
const bearerPrefix = 'Bearer ';

const answerFast = (
  fast: FastAnswers,
  options: FastAnswersOptions,
  method: string | undefined,
  url: string | undefined,
  headers: IncomingHttpHeaders,
): { route: FastRoute; answer: FastAnswer } | undefined => {
  if (method !== 'GET' || url === undefined || url.length > maxPathLength || url.includes('?')) {
    return undefined;
  }
  const { authorization } = headers;
  if (!authorization?.startsWith(bearerPrefix) || headers.origin !== undefined) return undefined;
  // Request lines are logged at debug (request-log.ts): then every request goes the usual way.
  if (!fast.log || fast.log.level === 'debug' || fast.log.level === 'trace') return undefined;
  if (urlHasNul(url) || headersHaveNul(headers)) return undefined;
  const actor = options.cachedActor(authorization.slice(bearerPrefix.length).trim());
  // A user still to verify their address meets the framework's gate (email-verification-gate.ts).
  if (actor === undefined || (actor.kind === 'user' && actor.emailVerificationPending)) {
    return undefined;
  }
  for (const route of fast.routes) {
    if (!allows(route.access, actor)) continue;
    const answer = route.answer(url, headers, actor);
    if (answer) return { route, answer };
  }
  return undefined;
};

const numberOr = (value: unknown, fallback: number): number =>
  typeof value === 'number' ? value : fallback;

// The server for Fastify's serverFactory: requests a fast route answers never reach the
// framework. Fastify applies its timeouts only to servers it creates: this one applies them too.
export const fastAnswersServer = (
  options: FastAnswersOptions,
  http: { maxHeaderSize: number },
): { serverFactory: FastifyServerFactory; attach(app: FastifyInstance): void } => {
  const fast: FastAnswers = { routes: [], observers: [] };
  const transport = Object.entries(options.transportHeaders).flat();
  const serverFactory: FastifyServerFactory = (handler, opts) => {
    const server = createServer(http, (request, response) => {
      if (fast.routes.length === 0) return handler(request, response);
      const started = performance.now();
      let found;
      try {
        found = answerFast(fast, options, request.method, request.url, request.headers);
      } catch (error) {
        // The framework answers it instead (and logs what fails there too).
        fast.log?.error({ err: error }, 'fast answer failed');
      }
      if (!found) return handler(request, response);
      const { status, headers } = found.answer;
      // Node takes name, value, name, value... as is: no object of every header per answer, and
      // a copy of the fixed list with the answer's own few appended (no iterators or spreads:
      // this runs for most of what a fleet sends).
      const raw = transport.slice();
      for (const name in headers) raw.push(name, headers[name] ?? '');
      response.writeHead(status, raw);
      response.end();
      const seconds = (performance.now() - started) / 1000;
      for (const observe of fast.observers) observe(found.route.url, 'GET', status, seconds);
    });
    server.keepAliveTimeout = numberOr(opts.keepAliveTimeout, 72_000);
    server.requestTimeout = numberOr(opts.requestTimeout, 0);
    server.setTimeout(numberOr(opts.connectionTimeout, 0));
    const maxRequestsPerSocket = numberOr(opts.maxRequestsPerSocket, 0);
    if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
  return {
    serverFactory,
    attach(app) {
      fast.log = app.log;
      byApp.set(app, fast);
    },
  };
};

// A route answered from memory when it can; the framework route of the same URL stays the
// authority for everything else.
export const addFastRoute = (app: FastifyInstance, route: FastRoute): void => {
  byApp.get(app)?.routes.push(route);
};

// Sees every fast answer (the request metrics count them with the framework's).
export const observeFastAnswers = (app: FastifyInstance, observer: FastAnswerObserver): void => {
  byApp.get(app)?.observers.push(observer);
};
