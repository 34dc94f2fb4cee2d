import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createUser } from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerCodeHost, repositoryLookupOf } from './register-code-host.js';

// A local stand-in for the code host: its API answers repositories with their default branch,
// its raw host their balena.yml; "slow" never answers.
const branches = new Map([
  ['acme/widget', 'main'],
  ['acme/broken', 'develop'],
  ['acme/bare', 'main'],
  ['acme/slow', 'main'],
]);
const files = new Map([
  [
    'acme/widget/main/balena.yml',
    [
      'name: Widget',
      'type: sw.application',
      'version: 1.2.3',
      'description: Shows widgets',
      'data:',
      '  defaultDeviceType: raspberrypi4-64',
      '  supportedDeviceTypes: [raspberrypi4-64, intel-nuc]',
      '  applicationEnvironmentVariables:',
      '    - COLOR: blue',
      '  applicationConfigVariables:',
      '    - BALENA_HOST_CONFIG_gpu_mem: 128',
    ].join('\n'),
  ],
  ['acme/broken/develop/balena.yml', 'name: Broken\ntype: sw.nonsense\n'],
]);
const hanging: ServerResponse[] = [];
const codeHost = createServer((request, response) => {
  const path = request.url ?? '';
  const repository = /^\/api\/repos\/([^/]+\/[^/]+)$/.exec(path)?.[1];
  if (repository === 'acme/slow') {
    hanging.push(response);
    return;
  }
  const branch = repository === undefined ? undefined : branches.get(repository);
  if (branch !== undefined) {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ full_name: repository, default_branch: branch }));
    return;
  }
  const file = path.startsWith('/raw/') ? files.get(path.slice('/raw/'.length)) : undefined;
  if (file !== undefined) response.writeHead(200, { 'content-type': 'text/plain' }).end(file);
  else response.writeHead(404).end('Not Found');
});

let db: Database;
let origin: string;
// Allowed to reach the loopback stand-in (as an operator's FLOTILLA_CODE_HOST_ALLOWED_NETWORKS).
let allowing: FastifyInstance;
// The default: public addresses only.
let guarded: FastifyInstance;
let token: string;
// One signing secret for both apps, so one session token signs in to either.
const jwtSecret = randomBytes(32);

const appWith = (allowedNetworks: string[]) =>
  createTestApp(
    createTestContext(db, {
      jwtSecret,
      config: {
        codeHost: {
          webUrl: origin,
          apiUrl: `${origin}/api`,
          rawUrl: `${origin}/raw`,
          allowedNetworks,
          timeoutMs: 300,
        },
      },
    }),
    registerCodeHost,
  );

const lookUp = (app: FastifyInstance, url: string | undefined, auth = true) =>
  app.inject({
    method: 'GET',
    url: '/code-host/v1/repository-contract',
    query: url === undefined ? {} : { url },
    headers: auth ? { authorization: `Bearer ${token}` } : {},
  });

beforeAll(async () => {
  await new Promise<void>((resolve) => codeHost.listen(0, '127.0.0.1', resolve));
  const address = codeHost.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
  db = await createTestDatabase();
  allowing = await appWith(['127.0.0.1']);
  guarded = await appWith([]);
  const user = await createUser(db, 'looker');
  token = await issueSessionToken(createTestContext(db, { jwtSecret }), db, user.userId);
});

afterAll(async () => {
  for (const response of hanging) response.destroy();
  await allowing.close();
  await guarded.close();
  await db.close();
  await new Promise((resolve) => codeHost.close(resolve));
});

describe('GET /code-host/v1/repository-contract', () => {
  it("answers the repository's default branch and its balena.yml contract", async () => {
    const response = await lookUp(allowing, `${origin}/acme/widget.git`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      url: `${origin}/acme/widget`,
      owner: 'acme',
      repo: 'widget',
      branch: 'main',
      archiveUrl: `${origin}/acme/widget/archive/main.tar.gz`,
      contract: {
        name: 'Widget',
        type: 'sw.application',
        version: '1.2.3',
        description: 'Shows widgets',
        defaultDeviceType: 'raspberrypi4-64',
        supportedDeviceTypes: ['raspberrypi4-64', 'intel-nuc'],
        environmentVariables: [{ name: 'COLOR', value: 'blue' }],
        configVariables: [{ name: 'BALENA_HOST_CONFIG_gpu_mem', value: '128' }],
      },
    });
  });

  it('says "Repository not found: {url}" for a repository the code host does not know', async () => {
    const response = await lookUp(allowing, `${origin}/acme/missing`);
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(`Repository not found: ${origin}/acme/missing`);
  });

  it('refuses an invalid or missing balena.yml', async () => {
    const broken = await lookUp(allowing, `${origin}/acme/broken`);
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toMatch(
      /^The balena.yml contract in the repository is invalid: balena.yml: 'type' must be one of/,
    );
    const bare = await lookUp(allowing, `${origin}/acme/bare`);
    expect(bare.statusCode).toBe(400);
    expect(bare.body).toBe(
      'The balena.yml contract in the repository is invalid: there is no balena.yml on branch main',
    );
  });

  it('gives up when the code host does not answer in time', async () => {
    const response = await lookUp(allowing, `${origin}/acme/slow`);
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe(
      'Failed retrieving data from the code host (no answer within 0.3 s)',
    );
    expect(hanging).toHaveLength(1);
  });

  it('refuses to reach a private address unless the operator allows it', async () => {
    const response = await lookUp(guarded, `${origin}/acme/widget`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(
      /^Refusing to contact 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address\./,
    );
  });

  it('refuses what is not a repository URL of the code host with a 400', async () => {
    for (const url of [
      undefined,
      '',
      'not a url',
      'https://elsewhere.example/acme/widget',
      `${origin}/acme`,
      `${origin}/acme/widget/tree/main`,
      `${origin}/acme/widget?x=1`,
    ]) {
      const response = await lookUp(allowing, url);
      expect(response.statusCode, String(url)).toBe(400);
    }
    const other = await lookUp(allowing, 'https://elsewhere.example/acme/widget');
    expect(other.body).toBe(
      `https://elsewhere.example/acme/widget is not a repository URL: it must be ${origin}/<owner>/<repository>`,
    );
  });

  it('answers signed-in users only', async () => {
    const response = await lookUp(allowing, `${origin}/acme/widget`, false);
    expect(response.statusCode).toBe(401);
  });

  it('refuses a user more lookups than the per-minute limit, with a 429', async () => {
    const ctx = createTestContext(db, {
      jwtSecret,
      config: {
        codeHost: {
          webUrl: origin,
          apiUrl: `${origin}/api`,
          rawUrl: `${origin}/raw`,
          allowedNetworks: ['127.0.0.1'],
          timeoutMs: 300,
        },
      },
    });
    const limited = await createTestApp(ctx, (instance, context) =>
      registerCodeHost(instance, context, repositoryLookupOf(context), 2),
    );
    try {
      const eager = await createUser(db, 'eager-looker');
      const eagerToken = await issueSessionToken(ctx, db, eager.userId);
      const statuses: number[] = [];
      for (let call = 0; call < 3; call += 1) {
        const response = await limited.inject({
          method: 'GET',
          url: '/code-host/v1/repository-contract',
          query: { url: `${origin}/acme/widget` },
          headers: { authorization: `Bearer ${eagerToken}` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
