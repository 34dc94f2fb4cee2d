import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { CorsOrigins } from '../config/cors-origins.js';

// Everything balena-sdk (and pinejs-client) sends from a browser: the wire contract lists
// X-Balena-Client; If-None-Match is the target-state poll's. Forbidden headers (Accept-Encoding,
// ...) are the browser's own and need no listing.
export const corsAllowedHeaders = [
  'Content-Type',
  'Authorization',
  'Application-Record-Count',
  'MaxDataServiceVersion',
  'X-Requested-With',
  'X-Balena-Client',
  'If-None-Match',
] as const;

export const corsExposedHeaders = ['Retry-After', 'ETag', 'Location'] as const;

export const corsAllowedMethods = [
  'GET',
  'HEAD',
  'POST',
  'PATCH',
  'PUT',
  'DELETE',
  'OPTIONS',
] as const;

// Cross-origin API calls (balena-sdk in a page of another origin). By default any origin may
// call, but never with credentials: the API authenticates with a bearer token that the page
// sends itself, so credentials (cookies) gain nothing and an echoed arbitrary origin with
// credentials would let every site ride a session. A configured list echoes only its origins,
// and those may send credentials.
export const registerCors = (app: FastifyInstance, origins: CorsOrigins): void => {
  void app.register(cors, {
    origin: origins.kind === 'any' ? '*' : [...origins.origins],
    credentials: origins.kind === 'list',
    methods: [...corsAllowedMethods],
    allowedHeaders: [...corsAllowedHeaders],
    exposedHeaders: [...corsExposedHeaders],
    maxAge: 86_400,
  });
};

// What the plugin adds to an answer to a request without an Origin header when any origin may
// call, for answers written without the framework (fast-answers.ts); undefined for a configured
// list, whose answers those do not write.
export const corsHeadersWithoutOrigin = (
  origins: CorsOrigins,
): Record<string, string> | undefined =>
  origins.kind === 'any'
    ? {
        'access-control-allow-origin': '*',
        'access-control-expose-headers': corsExposedHeaders.join(', '),
      }
    : undefined;
