import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import {
  addFleetMember,
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { projectTarball } from '../../test-support/project-tarball.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import { fetchOptionsOf, registerBuildFromUrl } from './register-build-from-url.js';
import { registerBuilder } from './register-builder.js';
import { createUrlBuildLimit } from './url-build-limit.js';

let db: Database;
let fleet: FleetFixture;
let organization: number;
let origin: string;
let port: number;
let project: Buffer;
// Requests the project server received, as `host path`.
const served: string[] = [];
const tokens = new Map<string, string>();
const apps: FastifyInstance[] = [];
let projectServer: Server;
// Resolves with the way to finish the held download once its request has arrived.
let heldArrived: (finish: () => void) => void = () => undefined;
const held = new Promise<() => void>((resolve) => {
  heldArrived = resolve;
});
// Names the fake resolver was asked for.
const resolved: string[] = [];

const compose = "services:\n  web:\n    image: nginx:1.27\n    ports: ['80:80']\n";

// The project's host, on 127.0.0.1: the tarball, redirects, failures.
const startProjectServer = (): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      served.push(`${request.headers.host ?? ''} ${path}`);
      const redirect = (to: string) => response.writeHead(302, { location: to }).end();
      if (path === '/project.tar.gz') response.end(project);
      else if (path === '/hop') redirect('/project.tar.gz');
      else if (path === '/to-private') redirect('http://10.0.0.1/project.tar.gz');
      else if (path === '/to-ipv6-loopback') redirect(`http://[::1]:${port}/project.tar.gz`);
      else if (path === '/to-metadata') redirect('http://169.254.169.254/latest/meta-data/');
      else if (path === '/loop') redirect('/loop');
      else if (path === '/text') response.end('just text, not a tarball');
      else if (path === '/big') response.end(Buffer.alloc(4096));
      else if (path === '/slow') response.writeHead(200).write('x');
      else if (path === '/held') {
        // Sent once the test has seen the build log's first line.
        response.writeHead(200);
        heldArrived(() => response.end(project));
      } else response.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

// One signing secret for every app, so one session token serves them all.
const jwtSecret = randomBytes(32);
const appWith = async (
  register: (app: FastifyInstance, ctx: AppContext) => void,
  allowed: string[] = [],
): Promise<FastifyInstance> => {
  const ctx = createTestContext(db, { jwtSecret, config: { builderAllowedNetworks: allowed } });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
  const app = await createTestApp(ctx, register);
  apps.push(app);
  if (tokens.size === 0) {
    const owner = await createUser(db, 'owner');
    const observer = await createUser(db, 'observer');
    organization = await createOrganization(db, 'acme');
    await addOrganizationMember(db, owner.userId, organization, 'administrator');
    await addOrganizationMember(db, observer.userId, organization, 'member');
    fleet = await createFleet(db, organization, 'From-URL');
    await addFleetMember(db, observer.userId, fleet.id, 'observer');
    tokens.set('owner', await issueSessionToken(ctx, db, owner.userId));
    tokens.set('observer', await issueSessionToken(ctx, db, observer.userId));
  }
  return app;
};

let guarded: FastifyInstance;
let allowLoopback: FastifyInstance;
let fakeDns: FastifyInstance;

const build = (app: FastifyInstance, url: string, user = 'owner', fleetName = 'From-URL') =>
  app.inject({
    method: 'POST',
    // As balena-sdk sends it: owner and app unencoded.
    url: `/v3/buildFromUrl?headless=true&owner=acme&app=${fleetName}`,
    headers: { authorization: `Bearer ${tokens.get(user) ?? ''}` },
    payload: { shouldFlatten: true, url },
  });

const releaseCount = async (): Promise<number> =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM "release"')).rows[0]?.n ?? '-1');

// The request is refused with a 400 that says why, and leaves no release.
const expectRefused = async (app: FastifyInstance, url: string, message: RegExp): Promise<void> => {
  const before = await releaseCount();
  const response = await build(app, url);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.body).toMatch(message);
  expect(await releaseCount()).toBe(before);
};

beforeAll(async () => {
  db = await createTestDatabase();
  project = await projectTarball({ 'docker-compose.yml': compose });
  projectServer = await startProjectServer();
  port = (projectServer.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  guarded = await appWith(registerBuilder);
  allowLoopback = await appWith(registerBuilder, ['127.0.0.1/32']);
  fakeDns = await appWith(
    (app, ctx) =>
      registerBuildFromUrl(app, ctx, {
        ...fetchOptionsOf(ctx, (hostname) => {
          resolved.push(hostname);
          if (hostname === 'project.test') return Promise.resolve(['127.0.0.1']);
          if (hostname === 'mixed.test') return Promise.resolve(['127.0.0.1', '10.1.2.3']);
          return Promise.reject(new Error(`the fake resolver knows no ${hostname}`));
        }),
        timeoutMs: 500,
        maxBytes: 1024,
      }),
    ['127.0.0.1/32'],
  );
});

afterAll(async () => {
  for (const app of apps) await app.close();
  projectServer.closeAllConnections();
  projectServer.close();
  await db.close();
});

describe('POST /v3/buildFromUrl', () => {
  it('downloads the tarball and answers as balena-sdk expects, with the new release', async () => {
    const response = await build(allowLoopback, `${origin}/hop`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<{ started: boolean; releaseId: number; message: string }>();
    expect(answer).toEqual({
      started: true,
      releaseId: answer.releaseId,
      message: 'Build succeeded',
    });
    const { rows } = await db.query(
      'SELECT "status", "belongs_to__application" AS "fleet" FROM "release" WHERE "id" = $1',
      [answer.releaseId],
    );
    expect(rows).toEqual([{ status: 'success', fleet: fleet.id }]);
    expect(served.slice(-2)).toEqual([
      `127.0.0.1:${port} /hop`,
      `127.0.0.1:${port} /project.tar.gz`,
    ]);
  });

  it('refuses loopback, private, link-local, unspecified and multicast hosts by default', async () => {
    const before = served.length;
    const refusal = /only from public addresses.*FLOTILLA_BUILDER_ALLOWED_NETWORKS/;
    await expectRefused(guarded, `${origin}/project.tar.gz`, /127\.0\.0\.1 is a loopback address/);
    await expectRefused(guarded, 'http://10.0.0.7/p.tar.gz', /10\.0\.0\.7 is a private address/);
    await expectRefused(guarded, 'http://169.254.169.254/latest', /is a link-local address/);
    await expectRefused(guarded, `http://[::1]:${port}/project.tar.gz`, /::1 is a loopback/);
    await expectRefused(guarded, 'http://[::ffff:127.0.0.1]/', /is a loopback address/);
    await expectRefused(guarded, 'http://0.0.0.0/', /is an? \S+ address|unspecified/);
    await expectRefused(guarded, 'http://224.0.0.1/', /multicast/);
    await expectRefused(guarded, 'http://2130706433/', refusal);
    await expectRefused(guarded, 'http://localhost/', refusal);
    expect(served.length).toBe(before);
  });

  it('refuses other schemes and text that is not a URL', async () => {
    await expectRefused(guarded, 'file:///etc/passwd', /http or https/);
    await expectRefused(guarded, 'ftp://example.com/p.tar.gz', /http or https/);
    await expectRefused(guarded, 'not a url', /http or https/);
  });

  it('checks every redirect hop like the first and limits redirects', async () => {
    await expectRefused(allowLoopback, `${origin}/to-private`, /10\.0\.0\.1 is a private/);
    await expectRefused(allowLoopback, `${origin}/to-ipv6-loopback`, /::1 is a loopback/);
    await expectRefused(allowLoopback, `${origin}/to-metadata`, /link-local/);
    await expectRefused(allowLoopback, `${origin}/loop`, /redirects more than 5 times/);
  });

  it('connects to the address it checked, resolving the name once per hop', async () => {
    resolved.length = 0;
    const response = await build(fakeDns, `http://project.test:${port}/project.tar.gz`);
    expect(response.statusCode, response.body).toBe(200);
    expect(resolved).toEqual(['project.test']);
    expect(served.at(-1)).toBe(`project.test:${port} /project.tar.gz`);
    // A name with any address outside the allowed networks is refused, whatever its others.
    await expectRefused(fakeDns, `http://mixed.test:${port}/x`, /10\.1\.2\.3 is a private/);
    await expectRefused(fakeDns, 'http://unknown.test/x', /could not be resolved/);
  });

  it('limits the size and the time of the download', async () => {
    await expectRefused(fakeDns, `http://project.test:${port}/big`, /larger than/);
    await expectRefused(fakeDns, `http://project.test:${port}/slow`, /took longer than 0\.5 s/);
  });

  it('refuses what is not a project, and answers that are not 2xx', async () => {
    await expectRefused(allowLoopback, `${origin}/text`, /not a tar archive/);
    await expectRefused(allowLoopback, `${origin}/missing`, /answered 404/);
  });

  it('counts URL builds per user per hour and refuses more with 429, before downloading', async () => {
    const limited = await appWith(
      (app, ctx) =>
        registerBuildFromUrl(app, ctx, fetchOptionsOf(ctx), createUrlBuildLimit(ctx, 2)),
      ['127.0.0.1/32'],
    );
    for (const name of ['limited', 'unlimited']) {
      const user = await createUser(db, name);
      await addOrganizationMember(db, user.userId, organization, 'administrator');
      const ctx = createTestContext(db, { jwtSecret });
      tokens.set(name, await issueSessionToken(ctx, db, user.userId));
    }
    for (const path of ['/missing', '/project.tar.gz']) {
      const counted = await build(limited, `${origin}${path}`, 'limited');
      expect(counted.statusCode, counted.body).not.toBe(429);
    }
    const before = served.length;
    const refused = await build(limited, `${origin}/project.tar.gz`, 'limited');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(served.length).toBe(before);
    // Another user's builds are counted apart.
    const other = await build(limited, `${origin}/project.tar.gz`, 'unlimited');
    expect(other.statusCode, other.body).toBe(200);
  });

  it('downloads nothing for a caller who may not create releases, or for an unknown fleet', async () => {
    const before = served.length;
    const observer = await build(allowLoopback, `${origin}/project.tar.gz`, 'observer');
    expect(observer.statusCode).toBe(401);
    const unknown = await build(allowLoopback, `${origin}/project.tar.gz`, 'owner', 'nothing');
    expect(unknown.statusCode).toBe(404);
    expect(served.length).toBe(before);
  });
});

describe("the console's build route with a URL and a live log", () => {
  const events = (body: string): unknown[] =>
    body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as unknown);

  const consoleBuild = (app: FastifyInstance, payload: object) =>
    app.inject({
      method: 'POST',
      url: `/builder/v1/applications/${fleet.id}/releases`,
      headers: {
        authorization: `Bearer ${tokens.get('owner') ?? ''}`,
        accept: 'application/x-ndjson',
      },
      payload,
    });

  it('streams the download and build log, then the result', async () => {
    const response = await consoleBuild(allowLoopback, { url: `${origin}/project.tar.gz` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/x-ndjson/);
    const all = events(response.body);
    expect(all.slice(0, -1)).toEqual([
      { line: `Downloading ${origin}/project.tar.gz` },
      { line: expect.stringMatching(/^Downloaded \d+\.\d KiB$/) as unknown },
      { line: '[web] Using image nginx:1.27' },
      { line: 'Build succeeded' },
    ]);
    expect(all.at(-1)).toMatchObject({ result: { status: 'success' } });
  });

  it('ends the stream with the refusal and creates nothing', async () => {
    const before = await releaseCount();
    const response = await consoleBuild(allowLoopback, { url: `${origin}/missing` });
    expect(events(response.body)).toEqual([
      { line: `Downloading ${origin}/missing` },
      { error: 'The project URL answered 404 Not Found' },
    ]);
    expect(await releaseCount()).toBe(before);
    const guardedAnswer = await consoleBuild(guarded, { url: `${origin}/project.tar.gz` });
    expect(events(guardedAnswer.body)).toEqual([
      { error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) as unknown },
    ]);
    expect(await releaseCount()).toBe(before);
  });

  it('sends each line as it is written, before the build has ended', async () => {
    const address = await allowLoopback.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/builder/v1/applications/${fleet.id}/releases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.get('owner') ?? ''}`,
        accept: 'application/x-ndjson',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: `${origin}/held` }),
    });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    // The project server holds the tarball back: the first line must arrive without it.
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(events(text)).toEqual([{ line: `Downloading ${origin}/held` }]);
    (await held)();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(events(text).at(-1)).toMatchObject({ result: { status: 'success' } });
  });
});
