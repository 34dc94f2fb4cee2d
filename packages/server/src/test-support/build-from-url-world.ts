import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../app-context.js';
import {
  type BuildFromUrlAnswer,
  fetchOptionsOf,
  registerBuildFromUrl,
  startedMessage,
} from '../features/builder/register-build-from-url.js';
import { registerBuilder } from '../features/builder/register-builder.js';
import { issueSessionToken } from '../features/auth/issue-session-token.js';
import { registerFleetHooks } from '../features/fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../features/releases/release-hooks.js';
import type { Database } from '../infra/db/database.js';
import {
  addFleetMember,
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from './fixtures.js';
import { projectTarball } from './project-tarball.js';
import { createTestApp, createTestContext } from './test-context.js';
import { createTestDatabase } from './test-database.js';
import { waitForValue } from './wait-for.js';

// What the builder's URL tests share (build-from-url.int.test.ts, url-build.int.test.ts): a
// database with an organization, a fleet, its owner and an observer; a project server on
// 127.0.0.1 (tarballs, redirects, failures, a held download); apps that refuse loopback, allow it,
// or resolve names with a fake resolver; and the checks those tests make.

let db: Database;
let fleet: FleetFixture;
let owner: Awaited<ReturnType<typeof createUser>>;
let organization: number;
let origin: string;
let port: number;
let project: Buffer;
// The same project in one top-level folder (as GitHub's archives), one without a compose file, and
// one whose service needs a build step.
let nested: Buffer;
let noCompose: Buffer;
let needsBuild: Buffer;
// Requests the project server received, as `host path`.
export const served: string[] = [];
export const tokens = new Map<string, string>();
const apps: FastifyInstance[] = [];
let projectServer: Server;
// The ways to finish each held download, in the order their requests arrived.
export const held: (() => void)[] = [];
// Names the fake resolver was asked for.
export const resolved: string[] = [];

const compose = "services:\n  web:\n    image: nginx:1.27\n    ports: ['80:80']\n";

// The project's host, on 127.0.0.1: the tarball, redirects, failures.
const startProjectServer = (): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      served.push(`${request.headers.host ?? ''} ${path}`);
      const redirect = (to: string) => response.writeHead(302, { location: to }).end();
      if (path === '/project.tar.gz') response.end(project);
      else if (path === '/nested.tar.gz') response.end(nested);
      else if (path === '/no-compose.tar.gz') response.end(noCompose);
      else if (path === '/needs-build.tar.gz') response.end(needsBuild);
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
        held.push(() => response.end(project));
      } else response.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

// One signing secret for every app, so one session token serves them all.
export const jwtSecret = randomBytes(32);
export const appWith = async (
  register: (app: FastifyInstance, ctx: AppContext) => void,
  allowed: string[] = [],
): Promise<FastifyInstance> => {
  const ctx = createTestContext(db, { jwtSecret, config: { builderAllowedNetworks: allowed } });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
  const app = await createTestApp(ctx, register);
  apps.push(app);
  if (tokens.size === 0) {
    owner = await createUser(db, 'owner');
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

export const build = (
  app: FastifyInstance,
  url: string,
  user = 'owner',
  fleetName = 'From-URL',
  shouldFlatten = true,
) =>
  app.inject({
    method: 'POST',
    // As balena-sdk sends it: owner and app unencoded.
    url: `/v3/buildFromUrl?headless=true&owner=acme&app=${fleetName}`,
    headers: { authorization: `Bearer ${tokens.get(user) ?? ''}` },
    payload: { shouldFlatten, url },
  });

export type ReleaseRow = { status: string; fleet: number; build_log: string | null };

export const releaseOf = async (id: number): Promise<ReleaseRow | undefined> =>
  (
    await db.query<ReleaseRow>(
      `SELECT "status", "belongs_to__application" AS "fleet", "build_log"
         FROM "release" WHERE "id" = $1`,
      [id],
    )
  ).rows[0];

// The release once its build has ended (the signal: its row leaves running).
export const endedRelease = async (id: number): Promise<ReleaseRow> => {
  const row = await waitForValue(
    `release ${id} to end its build`,
    () => releaseOf(id),
    (found) => found !== undefined && found.status !== 'running',
  );
  if (!row) throw new Error(`release ${id} is gone`);
  return row;
};

// The answer balena-sdk expects, given at once: the build goes on in the background.
export const expectStarted = async (
  app: FastifyInstance,
  url: string,
  shouldFlatten = true,
): Promise<number> => {
  const response = await build(app, url, 'owner', 'From-URL', shouldFlatten);
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json<BuildFromUrlAnswer>();
  expect(answer).toEqual({
    started: true,
    releaseId: answer.releaseId,
    message: startedMessage(answer.releaseId),
  });
  return answer.releaseId;
};

// The request is answered, and the build ends failed with the reason in its log.
export const expectFailedBuild = async (
  app: FastifyInstance,
  url: string,
  reason: RegExp,
  shouldFlatten = true,
): Promise<void> => {
  const release = await endedRelease(await expectStarted(app, url, shouldFlatten));
  expect(release.status).toBe('failed');
  expect(release.build_log).toMatch(reason);
};

export const releaseCount = async (): Promise<number> =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM "release"')).rows[0]?.n ?? '-1');

// The request is refused with a 400 that says why, and leaves no release.
export const expectRefused = async (
  app: FastifyInstance,
  url: string,
  message: RegExp,
): Promise<void> => {
  const before = await releaseCount();
  const response = await build(app, url);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.body).toMatch(message);
  expect(await releaseCount()).toBe(before);
};

// Starts the database, the project server and the apps (beforeAll of each test file). Each file
// has its own world: test files may share one process (and this module), so what a previous file
// left (its users' tokens, its requests, its apps) is forgotten first.
export const setUpWorld = async (): Promise<void> => {
  served.length = 0;
  tokens.clear();
  apps.length = 0;
  held.length = 0;
  resolved.length = 0;
  db = await createTestDatabase();
  project = await projectTarball({ 'docker-compose.yml': compose });
  nested = await projectTarball({ 'project-main/docker-compose.yml': compose });
  noCompose = await projectTarball({ 'README.md': '# nothing to run\n' });
  needsBuild = await projectTarball({
    'docker-compose.yml': 'services:\n  app:\n    build: ./app\n',
  });
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
};

export const tearDownWorld = async (): Promise<void> => {
  for (const app of apps) await app.close();
  projectServer.closeAllConnections();
  projectServer.close();
  await db.close();
};

// The world's values, once setUpWorld has run.
export const w = {
  get db() {
    return db;
  },
  get fleet() {
    return fleet;
  },
  get owner() {
    return owner;
  },
  get organization() {
    return organization;
  },
  get origin() {
    return origin;
  },
  get port() {
    return port;
  },
  get guarded() {
    return guarded;
  },
  get allowLoopback() {
    return allowLoopback;
  },
  get fakeDns() {
    return fakeDns;
  },
};
