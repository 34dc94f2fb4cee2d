import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config/config.js';
import type { Database } from '../../infra/db/database.js';
import { createUser } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerConfigRoutes } from './register-config-routes.js';

let db: Database;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const ctx = createTestContext(db, { config: { deviceUrlsBase: 'devices.example.test' } });
  app = await createTestApp(ctx, registerConfigRoutes);
  const user = await createUser(db, 'reader');
  token = await issueSessionToken(ctx, db, user.userId);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('GET /config', () => {
  it('answers the device URL base without a token', async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      deviceUrlsBase: 'devices.example.test',
      actionsPath: '/actions',
    });
  });

  it('mentions billing and a newsletter only where the operator turned them on', async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.json()).toMatchObject({ billingEnabled: false, newsletterEnabled: false });
    const hosted = await createTestApp(
      createTestContext(db, { config: { billingEnabled: true, newsletterEnabled: true } }),
      registerConfigRoutes,
    );
    try {
      const answer = await hosted.inject({ url: '/config' });
      expect(answer.json()).toMatchObject({ billingEnabled: true, newsletterEnabled: true });
    } finally {
      await hosted.close();
    }
  });

  it("links the operator's service agreement only with billing on and an address set", async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.json()).toMatchObject({ serviceAgreementUrl: null });
    const agreement = 'https://operator.example/agreement';
    const hosted = await createTestApp(
      createTestContext(db, {
        config: { billingEnabled: true, serviceAgreementUrl: agreement },
      }),
      registerConfigRoutes,
    );
    try {
      const answer = await hosted.inject({ url: '/config' });
      expect(answer.json()).toMatchObject({ serviceAgreementUrl: agreement });
    } finally {
      await hosted.close();
    }
  });

  it("lists the operator's command-line login networks for the console (none by default)", async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.json()).toMatchObject({ cliLoginAllowedNetworks: [] });
  });

  it('says whether this server builds images, and why not', async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.json()).toMatchObject({
      builder: {
        buildsImages: false,
        unavailableReason: expect.stringMatching(/no container engine is configured/),
      },
    });
    const building = await createTestApp(
      createTestContext(db, {
        config: {
          builderDockerHost: { socketPath: '/run/builder.sock' },
          registry: { url: 'http://registry.test', host: 'registry.test' },
        },
      }),
      registerConfigRoutes,
    );
    try {
      const answer = await building.inject({ url: '/config' });
      expect(answer.json()).toMatchObject({
        builder: { buildsImages: true, unavailableReason: null },
      });
    } finally {
      await building.close();
    }
  });

  it('names the avatar service only when the operator enables one (none by default)', async () => {
    expect((await app.inject({ url: '/config' })).json()).toMatchObject({ avatarUrl: null });
    const template = 'https://avatars.example.test/{hash}?d=404';
    const withAvatars = await createTestApp(
      createTestContext(db, { config: { avatarUrl: template } }),
      registerConfigRoutes,
    );
    try {
      const answer = await withAvatars.inject({ url: '/config' });
      expect(answer.json()).toMatchObject({ avatarUrl: template });
    } finally {
      await withAvatars.close();
    }
  });

  it('names no analytics adapter: Flotilla has none', async () => {
    const response = await app.inject({ url: '/config' });
    expect(response.json()).toMatchObject({ analytics: null });
  });
});

describe('GET /config/vars', () => {
  it('answers the naming rules without a token', async () => {
    const response = await app.inject({ url: '/config/vars' });
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      reservedNames: ['RESIN', 'BALENA', 'USER'],
      reservedNamespaces: ['RESIN_', 'BALENA_'],
      invalidRegex: '/^[^A-Za-z]|\\W/',
      configVarInvalidRegex: '/^[^A-Za-z]|[^A-Za-z0-9_:]/',
    });
    expect(body.whiteListedNames).toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(body.whiteListedNamespaces).toContain('BALENA_HOST_CONFIG_');
    expect(body.blackListedNames).toContain('BALENA_DEVICE_UUID');
    const schema = body.configVarSchema as { properties: Record<string, unknown> };
    expect(schema.properties).toHaveProperty('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(schema.properties).toHaveProperty('BALENA_SUPERVISOR_PERSISTENT_LOGGING');
    expect(schema.properties).not.toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
  });

  it('needs a user for a device type, and resolves aliases', async () => {
    expect((await app.inject({ url: '/config/vars?deviceType=raspberrypi4-64' })).statusCode).toBe(
      401,
    );
    const headers = { authorization: `Bearer ${token}` };
    const pi = await app.inject({ url: '/config/vars?deviceType=raspberrypi2', headers });
    expect(pi.statusCode).toBe(200);
    expect(
      pi.json<{ configVarSchema: { properties: object } }>().configVarSchema.properties,
    ).toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
    const nuc = await app.inject({ url: '/config/vars?deviceType=intel-nuc', headers });
    expect(
      nuc.json<{ configVarSchema: { properties: object } }>().configVarSchema.properties,
    ).not.toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
  });
});

describe('GET /config helpLinks', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  const helpLinksOf = async (server: TestServer): Promise<unknown> => {
    const response = await fetch(`${server.url}/config`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { helpLinks?: unknown }).helpLinks;
  };

  it('defaults to the built-in documentation pages and hides the rest', async () => {
    const server = await startTestServer();
    servers.push(server);
    expect(await helpLinksOf(server)).toEqual({
      gettingStarted: '/docs/getting-started',
      docs: '/docs/agent',
      featureRequests: null,
      forums: null,
      help: null,
    });
  });

  it('serves the links the environment sets', async () => {
    const config = loadConfig({
      FLOTILLA_LOG_LEVEL: 'silent',
      FLOTILLA_LINK_GETTING_STARTED: 'https://wiki.example.com/flotilla/start',
      FLOTILLA_LINK_DOCS: 'https://wiki.example.com/flotilla',
      FLOTILLA_LINK_FEATURE_REQUESTS: 'https://github.example.com/flotilla/issues',
      FLOTILLA_LINK_FORUMS: 'http://forums.internal:8080/c/flotilla',
      // Empty counts as unset.
      FLOTILLA_LINK_HELP: '',
    });
    const server = await startTestServer({ config });
    servers.push(server);
    expect(await helpLinksOf(server)).toEqual({
      gettingStarted: 'https://wiki.example.com/flotilla/start',
      docs: 'https://wiki.example.com/flotilla',
      featureRequests: 'https://github.example.com/flotilla/issues',
      forums: 'http://forums.internal:8080/c/flotilla',
      help: null,
    });
  });

  it('refuses a link that is not an http(s) URL', () => {
    expect(() => loadConfig({ FLOTILLA_LINK_HELP: 'javascript:alert(1)' })).toThrow(
      /FLOTILLA_LINK_HELP: must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ FLOTILLA_LINK_FORUMS: '/forums' })).toThrow(/FLOTILLA_LINK_FORUMS/);
  });
});

describe('GET /config deployment', () => {
  it('is null unless FLOTILLA_DEPLOYMENT_TAG names the installation', async () => {
    expect((await app.inject({ url: '/config' })).json()).toMatchObject({ deployment: null });
    expect(loadConfig({ FLOTILLA_DEPLOYMENT_TAG: '' }).deploymentTag).toBeUndefined();
    const config = loadConfig({ FLOTILLA_DEPLOYMENT_TAG: ' staging ' });
    expect(config.deploymentTag).toBe('staging');
    const tagged = await createTestApp(
      createTestContext(db, { config: { deploymentTag: config.deploymentTag } }),
      registerConfigRoutes,
    );
    try {
      expect((await tagged.inject({ url: '/config' })).json()).toMatchObject({
        deployment: 'staging',
      });
    } finally {
      await tagged.close();
    }
  });

  it('refuses a tag that would not fit a page title', () => {
    expect(() => loadConfig({ FLOTILLA_DEPLOYMENT_TAG: 'x'.repeat(33) })).toThrow(
      /FLOTILLA_DEPLOYMENT_TAG: must be 1 to 32 letters/,
    );
    expect(() => loadConfig({ FLOTILLA_DEPLOYMENT_TAG: '<b>prod</b>' })).toThrow(
      /FLOTILLA_DEPLOYMENT_TAG/,
    );
  });
});
