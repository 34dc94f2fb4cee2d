import cors, { type FastifyCorsOptions } from '@fastify/cors';
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
  const origin = origins.kind === 'any' ? '*' : [...origins.origins];
  void app.register(cors, {
    origin,
    credentials: origins.kind === 'list',
    methods: [...corsAllowedMethods],
    allowedHeaders: [...corsAllowedHeaders],
    exposedHeaders: [...corsExposedHeaders],
    maxAge: 86_400,
  });
  // A device-protocol answer (route config `deviceProtocol`) gets CORS headers only when the
  // request carries an Origin header, as every cross-origin request from a browser does (the SDK
  // reads a device's target state too); a device's poll has none. The answer then depends on
  // Origin, so it says so (Vary), also on a 304 (fast-answers.ts writes the same).
  app.addHook('onRoute', (route) => {
    if (route.config?.deviceProtocol !== true) return;
    const deviceCors: FastifyCorsOptions = {
      origin: (requestOrigin, callback) => {
        callback(null, requestOrigin === undefined ? false : origin);
      },
    };
    route.config = { ...route.config, cors: deviceCors };
  });
};

// What a device-protocol answer to a request without Origin carries of CORS.
export const deviceProtocolCorsHeaders: Readonly<Record<string, string>> = { vary: 'Origin' };
