import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { createVerificationSigner } from '../features/email-verification/verification-token.js';
import { registerFeatureHooks } from '../feature-hooks.js';
import { createInvitationSigner } from '../features/invitations/invitation-signing.js';
import { defaultRegistryHost } from '../features/releases/image-location.js';
import type { Actor } from '../infra/auth/actor.js';
import { anonymous } from '../infra/auth/actor.js';
import { type Config, loadConfig } from '../infra/config/config.js';
import type { Database } from '../infra/db/database.js';
import { createTestNotificationBus } from './test-context.js';
import { createDeviceContacts } from '../features/heartbeat/device-contacts.js';
import { createApp } from '../infra/http/create-app.js';
import { createHookRegistry } from '../infra/odata/hooks.js';
import { registerBatchRoute } from '../infra/odata/register-batch-route.js';
import { registerODataRoutes } from '../infra/odata/register-odata-routes.js';
import { createRateLimiter } from '../infra/rate-limit/rate-limiter.js';
import type { ReadStatements } from '../infra/odata/statement-cache.js';
import type { Model } from '../model/model-types.js';
import { v7Model } from '../model/v7-model.js';
import type { DeviceFixture, FleetFixture, UserFixture } from './fixtures.js';

// The /v7 engine alone, with callers chosen by a test token ("Bearer <name>"), so engine and
// permission tests do not depend on the auth feature.
export type ODataTestApp = {
  app: FastifyInstance;
  actors: Map<string, Actor>;
  // The app's compiled-statement cache (infra/odata/statement-cache.ts).
  reads: ReadStatements;
  get(path: string, as?: string): Promise<{ status: number; body: unknown; text: string }>;
  send(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    as?: string,
  ): Promise<{ status: number; body: unknown; text: string }>;
};

export const userActor = (user: UserFixture, platformPermissions: string[] = []): Actor => ({
  kind: 'user',
  userId: user.userId,
  actorId: user.actorId,
  platformPermissions,
  via: 'session',
  twoFactorPending: false,
  emailVerificationPending: false,
});

export const deviceActor = (device: DeviceFixture, applicationId: number): Actor => ({
  kind: 'device',
  deviceId: device.id,
  actorId: device.actorId,
  applicationId,
});

export const provisioningActor = (fleet: FleetFixture): Actor => ({
  kind: 'application',
  applicationId: fleet.id,
  actorId: fleet.actorId,
});

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

// Tests of limits swap in a model (e.g. with a deliberately slow computed field) or settings.
// `shadow` (default on): every get() is answered a second time by the same engine without its
// compiled-statement cache, and an answer that differs fails the test, so every engine test also
// checks that the cache changes nothing.
export type ODataTestOverrides = { model?: Model; config?: Partial<Config>; shadow?: boolean };

const describeAnswer = (response: { statusCode: number; body: string }): string =>
  `${response.statusCode} ${response.body.slice(0, 2000)}`;

export const createODataTestApp = (
  db: Database,
  overrides: ODataTestOverrides = {},
): ODataTestApp => {
  const actors = new Map<string, Actor>();
  const hooks = createHookRegistry();
  const jwtSecret = randomBytes(32);
  const config = {
    ...loadConfig({ FLOTILLA_LOG_LEVEL: 'silent' }),
    // Release asset files go to a scratch directory, never to a developer's own ./data.
    dataDir: path.join(tmpdir(), 'flotilla-test-data'),
    ...overrides.config,
  };
  const publicUrl = () => 'http://console.test';
  registerFeatureHooks(hooks, {
    registryHost: defaultRegistryHost,
    dataDir: config.dataDir,
    billingEnabled: config.billingEnabled,
    invitations: {
      signer: createInvitationSigner(jwtSecret),
      publicUrl,
      limiter: createRateLimiter(db, () => new Date()),
      invitationsPerHour: config.invitationRateLimitPerHour,
    },
    verification: {
      signer: createVerificationSigner(jwtSecret),
      publicUrl,
      limiter: createRateLimiter(db, () => new Date()),
    },
  });
  const ctx: AppContext = {
    db,
    config,
    model: overrides.model ?? v7Model,
    hooks,
    now: () => new Date(),
    jwtSecret,
    notifications: createTestNotificationBus(db),
    contacts: createDeviceContacts(db),
    installation: { kind: 'bound', id: 'test' },
  };
  const makeApp = (): FastifyInstance =>
    createApp({
      logLevel: process.env.FLOTILLA_TEST_LOG_LEVEL ?? 'silent',
      resolveActor: async (token) => (token ? (actors.get(token) ?? anonymous) : anonymous),
    });
  const app = makeApp();
  const reads = registerODataRoutes(app, ctx);
  registerBatchRoute(app, ctx, reads);
  const shadow = overrides.shadow === false ? undefined : makeApp();
  if (shadow) {
    registerODataRoutes(shadow, {
      ...ctx,
      config: { ...ctx.config, odataCache: { ...ctx.config.odataCache, enabled: false } },
    });
    app.addHook('onClose', async () => {
      await shadow.close();
    });
  }
  const headers = (as?: string): Record<string, string> =>
    as ? { authorization: `Bearer ${as}` } : {};
  return {
    app,
    actors,
    reads,
    async get(path, as) {
      const request = { method: 'GET', url: `/v7${path}`, headers: headers(as) } as const;
      const response = await app.inject(request);
      if (shadow) {
        const uncached = await shadow.inject(request);
        if (uncached.statusCode !== response.statusCode || uncached.body !== response.body) {
          throw new Error(
            `GET ${path} as ${as ?? 'anonymous'}: the statement cache answered ${describeAnswer(response)}; without it: ${describeAnswer(uncached)}`,
          );
        }
      }
      return { status: response.statusCode, body: parse(response.body), text: response.body };
    },
    async send(method, path, body, as) {
      const response = await app.inject({
        method,
        url: `/v7${path}`,
        headers: { ...headers(as), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      return { status: response.statusCode, body: parse(response.body), text: response.body };
    },
  };
};
