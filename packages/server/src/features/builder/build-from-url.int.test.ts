import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  effectiveReleaseStatus,
  type ReleaseTimes,
} from '@flotilla/shared/releases/release-status';
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
import { waitFor, waitForValue } from '../../test-support/wait-for.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import {
  type BuildFromUrlAnswer,
  fetchOptionsOf,
  registerBuildFromUrl,
  startedMessage,
} from './register-build-from-url.js';
import { registerBuilder } from './register-builder.js';
import { startRelease } from './build-release.js';
import { checkProjectUrl } from './fetch-project.js';
import { runUrlBuild, serverFailureLine } from './url-build.js';
import { createUrlBuildLimit } from './url-build-limit.js';

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
const served: string[] = [];
const tokens = new Map<string, string>();
const apps: FastifyInstance[] = [];
let projectServer: Server;
// The ways to finish each held download, in the order their requests arrived.
const held: (() => void)[] = [];
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

const build = (
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

type ReleaseRow = { status: string; fleet: number; build_log: string | null };

const releaseOf = async (id: number): Promise<ReleaseRow | undefined> =>
  (
    await db.query<ReleaseRow>(
      `SELECT "status", "belongs_to__application" AS "fleet", "build_log"
         FROM "release" WHERE "id" = $1`,
      [id],
    )
  ).rows[0];

// The release once its build has ended (the signal: its row leaves running).
const endedRelease = async (id: number): Promise<ReleaseRow> => {
  const row = await waitForValue(
    `release ${id} to end its build`,
    () => releaseOf(id),
    (found) => found !== undefined && found.status !== 'running',
  );
  if (!row) throw new Error(`release ${id} is gone`);
  return row;
};

// The answer balena-sdk expects, given at once: the build goes on in the background.
const expectStarted = async (
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
const expectFailedBuild = async (
  app: FastifyInstance,
  url: string,
  reason: RegExp,
  shouldFlatten = true,
): Promise<void> => {
  const release = await endedRelease(await expectStarted(app, url, shouldFlatten));
  expect(release.status).toBe('failed');
  expect(release.build_log).toMatch(reason);
};

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
});

afterAll(async () => {
  for (const app of apps) await app.close();
  projectServer.closeAllConnections();
  projectServer.close();
  await db.close();
});

describe('POST /v3/buildFromUrl', () => {
  it('answers with the running release at once, then downloads and builds it', async () => {
    const before = held.length;
    const releaseId = await expectStarted(allowLoopback, `${origin}/held`);
    // The answer came before the tarball: the release exists, running.
    expect(await releaseOf(releaseId)).toEqual({
      status: 'running',
      fleet: fleet.id,
      build_log: null,
    });
    // A build that stays running (a server stopped mid-build) times out after 120 minutes.
    const { rows: times } = await db.query<ReleaseTimes>(
      `SELECT "status", "start_timestamp"::text, "update_timestamp"::text
         FROM "release" WHERE "id" = $1`,
      [releaseId],
    );
    const [stuck] = times;
    if (!stuck) throw new Error('no release');
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    expect(effectiveReleaseStatus(stuck, later(119))).toBe('running');
    expect(effectiveReleaseStatus(stuck, later(121))).toBe('timeout');
    await waitFor('the held download to arrive', () => held.length > before);
    held[before]?.();
    const release = await endedRelease(releaseId);
    expect(release.status).toBe('success');
    expect(release.build_log?.split('\n')).toEqual([
      `Downloading ${origin}/held`,
      expect.stringMatching(/^Downloaded \d+\.\d KiB$/) as unknown,
      '[web] Using image nginx:1.27',
      'Build succeeded',
    ]);
  });

  it('follows redirects to the tarball', async () => {
    const release = await endedRelease(await expectStarted(allowLoopback, `${origin}/hop`));
    expect(release.status).toBe('success');
    expect(served.slice(-2)).toEqual([
      `127.0.0.1:${port} /hop`,
      `127.0.0.1:${port} /project.tar.gz`,
    ]);
  });

  it('ends the release failed with the reason: download, not a tarball, no compose file, build step', async () => {
    await expectFailedBuild(
      allowLoopback,
      `${origin}/missing`,
      /^Downloading .*\nBuild failed: The project URL answered 404 Not Found$/,
    );
    await expectFailedBuild(allowLoopback, `${origin}/text`, /Build failed: .*not a tar archive/);
    await expectFailedBuild(
      allowLoopback,
      `${origin}/no-compose.tar.gz`,
      /Build failed: The project has no docker-compose.yml/,
    );
    await expectFailedBuild(
      allowLoopback,
      `${origin}/needs-build.tar.gz`,
      /\[app\] Error: This server does not build images[^]*Build failed: see the services above/,
    );
  });

  it('reads a project in one top-level folder unless shouldFlatten is false', async () => {
    const flattened = await endedRelease(
      await expectStarted(allowLoopback, `${origin}/nested.tar.gz`),
    );
    expect(flattened.status).toBe('success');
    await expectFailedBuild(
      allowLoopback,
      `${origin}/nested.tar.gz`,
      /no docker-compose.yml .*at its root.*shouldFlatten is false/,
      false,
    );
    // A project at the tarball's root builds either way.
    const atRoot = await endedRelease(
      await expectStarted(allowLoopback, `${origin}/project.tar.gz`, false),
    );
    expect(atRoot.status).toBe('success');
  });

  it('refuses a build that is not headless, creating nothing', async () => {
    const before = await releaseCount();
    const response = await allowLoopback.inject({
      method: 'POST',
      url: '/v3/buildFromUrl?headless=false&owner=acme&app=From-URL',
      headers: { authorization: `Bearer ${tokens.get('owner') ?? ''}` },
      payload: { url: `${origin}/project.tar.gz` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/headless builds only/);
    expect(await releaseCount()).toBe(before);
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
    await expectFailedBuild(allowLoopback, `${origin}/to-private`, /10\.0\.0\.1 is a private/);
    await expectFailedBuild(allowLoopback, `${origin}/to-ipv6-loopback`, /::1 is a loopback/);
    await expectFailedBuild(allowLoopback, `${origin}/to-metadata`, /link-local/);
    await expectFailedBuild(allowLoopback, `${origin}/loop`, /redirects more than 5 times/);
  });

  it('connects to the address it checked, resolving the name once per hop', async () => {
    resolved.length = 0;
    const releaseId = await expectStarted(fakeDns, `http://project.test:${port}/project.tar.gz`);
    expect((await endedRelease(releaseId)).status).toBe('success');
    expect(resolved).toEqual(['project.test']);
    expect(served.at(-1)).toBe(`project.test:${port} /project.tar.gz`);
    // A name with any address outside the allowed networks is refused, whatever its others.
    await expectRefused(fakeDns, `http://mixed.test:${port}/x`, /10\.1\.2\.3 is a private/);
    await expectRefused(fakeDns, 'http://unknown.test/x', /could not be resolved/);
  });

  it('limits the size and the time of the download', async () => {
    await expectFailedBuild(
      fakeDns,
      `http://project.test:${port}/big`,
      /larger than 1 KiB|larger than/,
    );
    await expectFailedBuild(fakeDns, `http://project.test:${port}/slow`, /took longer than 0\.5 s/);
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
      expect(counted.statusCode, counted.body).toBe(200);
      // Counted, not failed: its download goes on (and ends) after the answer.
      await endedRelease(counted.json<BuildFromUrlAnswer>().releaseId);
    }
    const before = served.length;
    const refused = await build(limited, `${origin}/project.tar.gz`, 'limited');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(served.length).toBe(before);
    // Another user's builds are counted apart.
    const other = await build(limited, `${origin}/project.tar.gz`, 'unlimited');
    expect(other.statusCode, other.body).toBe(200);
    await endedRelease(other.json<BuildFromUrlAnswer>().releaseId);
  });

  it('downloads nothing for a caller who may not create releases, or for an unknown fleet', async () => {
    const before = served.length;
    const releases = await releaseCount();
    const observer = await build(allowLoopback, `${origin}/project.tar.gz`, 'observer');
    expect(observer.statusCode).toBe(401);
    const unknown = await build(allowLoopback, `${origin}/project.tar.gz`, 'owner', 'nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toMatch(/^Fleet acme\/nothing not found$/);
    expect(served.length).toBe(before);
    expect(await releaseCount()).toBe(releases);
  });

  it('answers a fleet the caller cannot see exactly as an unknown one', async () => {
    const stranger = await createUser(db, 'stranger');
    const elsewhere = await createOrganization(db, 'elsewhere');
    await addOrganizationMember(db, stranger.userId, elsewhere, 'administrator');
    const ctx = createTestContext(db, { jwtSecret });
    tokens.set('stranger', await issueSessionToken(ctx, db, stranger.userId));
    const before = served.length;
    const hidden = await build(allowLoopback, `${origin}/project.tar.gz`, 'stranger');
    const unknown = await build(allowLoopback, `${origin}/project.tar.gz`, 'stranger', 'Nowhere');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.statusCode).toBe(unknown.statusCode);
    expect(hidden.body).toBe(unknown.body.replace('acme/Nowhere', 'acme/From-URL'));
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
    const before = held.length;
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
    await waitFor('the held download to arrive', () => held.length > before);
    held[before]?.();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(events(text).at(-1)).toMatchObject({ result: { status: 'success' } });
  });
});

describe('a build after the answer', () => {
  it('logs an unexpected failure and ends the release failed, never running', async () => {
    const ctx = createTestContext(db, {
      jwtSecret,
      config: { builderAllowedNetworks: ['127.0.0.1/32'] },
    });
    registerFleetHooks(ctx.hooks);
    registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
    ctx.hooks.add('image', {
      beforeCreate: () => Promise.reject(new Error('the disk is full')),
    });
    const actor = {
      kind: 'user',
      userId: owner.userId,
      actorId: owner.actorId,
      platformPermissions: [],
      via: 'session',
      twoFactorPending: false,
      emailVerificationPending: false,
    } as const;
    const releaseId = await startRelease(ctx, actor, fleet.id);
    const fetchOptions = fetchOptionsOf(ctx);
    const logged: string[] = [];
    await runUrlBuild(ctx, {
      actor,
      fleetId: fleet.id,
      releaseId,
      source: await checkProjectUrl(`${origin}/project.tar.gz`, fetchOptions),
      flatten: true,
      fetchOptions,
      log: { error: (_details, message) => logged.push(message) },
    });
    const release = await releaseOf(releaseId);
    expect(release?.status).toBe('failed');
    expect(release?.build_log?.split('\n').at(-1)).toBe(serverFailureLine);
    expect(logged).toEqual(['build from URL failed']);
  });
});
