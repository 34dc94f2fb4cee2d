import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addFleetMember,
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
  type UserFixture,
} from '../../test-support/fixtures.js';
import { gzipBomb } from '../../test-support/gzip-bomb.js';
import { projectTarball } from '../../test-support/project-tarball.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import { createBuildLimit } from './build-limit.js';
import { registerBuilder } from './register-builder.js';

let db: Database;
let app: FastifyInstance;
let owner: UserFixture;
let fleet: FleetFixture;
let ctx: AppContext;
const tokens = new Map<string, string>();

const tarball = projectTarball;

const upload = (body: Buffer, user = 'owner', fleetId = fleet.id) =>
  app.inject({
    method: 'POST',
    url: `/builder/v1/applications/${fleetId}/releases`,
    headers: {
      authorization: `Bearer ${tokens.get(user) ?? ''}`,
      'content-type': 'application/gzip',
    },
    payload: body,
  });

const releaseCount = async (): Promise<number> =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM "release"')).rows[0]?.n ?? '-1');

const compose = `
version: '2.1'
services:
  web:
    image: nginx:1.27
    ports: ['80:80']
  worker:
    image: ghcr.io/acme/worker@sha256:${'a'.repeat(64)}
    environment:
      MODE: fast
`;

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db);
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
  app = await createTestApp(ctx, registerBuilder);
  owner = await createUser(db, 'owner');
  const observer = await createUser(db, 'observer');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  await addOrganizationMember(db, observer.userId, organization, 'member');
  fleet = await createFleet(db, organization, 'builds');
  await addFleetMember(db, observer.userId, fleet.id, 'observer');
  tokens.set('owner', await issueSessionToken(ctx, db, owner.userId));
  tokens.set('observer', await issueSessionToken(ctx, db, observer.userId));
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('the compose builder', () => {
  it('creates a successful release whose images keep their references, and the fleet runs it', async () => {
    const response = await upload(
      await tarball({
        'docker-compose.yml': compose,
        'balena.yml': 'name: builds\nversion: 2.3.4\ntype: sw.application\n',
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<{ releaseId: number; status: string; log: string[] }>();
    expect(result.status).toBe('success');
    expect(result.log).toEqual([
      '[web] Using image nginx:1.27',
      `[worker] Using image ghcr.io/acme/worker@sha256:${'a'.repeat(64)}`,
      'Build succeeded',
    ]);
    const { rows: release } = await db.query(
      `SELECT "status", "semver", "is_created_by__user" AS "author", "composition"->'services'->'web'->>'image' AS "web"
         FROM "release" WHERE "id" = $1`,
      [result.releaseId],
    );
    expect(release).toEqual([
      { status: 'success', semver: '2.3.4', author: owner.userId, web: 'nginx:1.27' },
    ]);
    const { rows: images } = await db.query(
      `SELECT s."service_name", i."status", i."is_stored_at__image_location" AS "location"
         FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
         JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE ri."is_part_of__release" = $1 ORDER BY s."service_name"`,
      [result.releaseId],
    );
    expect(images).toEqual([
      { service_name: 'web', status: 'success', location: 'nginx:1.27' },
      {
        service_name: 'worker',
        status: 'success',
        location: `ghcr.io/acme/worker@sha256:${'a'.repeat(64)}`,
      },
    ]);
    const { rows: target } = await db.query(
      'SELECT "should_be_running__release" AS "release" FROM "application" WHERE "id" = $1',
      [fleet.id],
    );
    expect(target).toEqual([{ release: result.releaseId }]);

    // A second build of the same project reuses the fleet's services.
    const again = await upload(await tarball({ 'docker-compose.yml': compose }));
    expect(again.statusCode, again.body).toBe(201);
    const { rows: services } = await db.query(
      'SELECT count(*)::int AS "n" FROM "service" WHERE "application" = $1',
      [fleet.id],
    );
    expect(services).toEqual([{ n: 2 }]);
  });

  it('fails a release whose service needs a build step, saying why', async () => {
    const response = await upload(
      await tarball({
        'docker-compose.yml':
          'services:\n  app:\n    build: ./app\n  db:\n    image: postgres:17\n',
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<{ releaseId: number; status: string; log: string[] }>();
    expect(result.status).toBe('failed');
    // Without a container engine the log says why.
    expect(result.log[0]).toMatch(
      /^\[app\] Error: This server does not build images: no container engine is configured \(FLOTILLA_BUILDER_DOCKER_HOST\)/,
    );
    const { rows } = await db.query(
      `SELECT r."status", i."status" AS "image", i."error_message" AS "error"
         FROM "release" r JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         JOIN "image" i ON i."id" = ri."image"
         JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE r."id" = $1 AND s."service_name" = 'app'`,
      [result.releaseId],
    );
    expect(rows).toEqual([
      { status: 'failed', image: 'failed', error: expect.stringMatching(/balena deploy/) },
    ]);
  });

  it.each([
    ['not a tarball', async () => Buffer.from('hello'), /not a tar archive/],
    [
      'no compose file',
      () => tarball({ 'README.md': '# app' }),
      /no docker-compose.yml or docker-compose.yaml/,
    ],
    [
      'invalid YAML',
      () => tarball({ 'docker-compose.yml': 'services: [' }),
      /docker-compose.yml is not valid YAML/,
    ],
    [
      'an unknown key',
      () => tarball({ 'docker-compose.yml': 'services:\n  app:\n    image: a\n    colour: red\n' }),
      /Service 'app': unknown key 'colour'/,
    ],
    [
      'a bad balena.yml version',
      () =>
        tarball({
          'docker-compose.yml': 'services:\n  app:\n    image: a\n',
          'balena.yml': 'version: latest\n',
        }),
      /'version' must be a semantic version/,
    ],
    [
      'more than 64 services',
      () =>
        tarball({
          'docker-compose.yml': `services:\n${Array.from(
            { length: builderLimits.services + 1 },
            (_, index) => `  s${index}:\n    image: a\n`,
          ).join('')}`,
        }),
      /has 65 services; at most 64 are allowed/,
    ],
    [
      'more than the size limit',
      async () => Buffer.alloc(builderLimits.projectBytes + 1),
      /larger than 20 MiB/,
    ],
  ])('refuses %s with a 400 and creates nothing', async (_what, project, message) => {
    const before = await releaseCount();
    const response = await upload(await project());
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(message);
    expect(await releaseCount()).toBe(before);
  });

  it('answers an oversized upload over HTTP with the 400, not a dropped connection', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/builder/v1/applications/${fleet.id}/releases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.get('owner') ?? ''}`,
        'content-type': 'application/gzip',
      },
      body: new Uint8Array(builderLimits.projectBytes + 64 * 1024),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/larger than 20 MiB/);
  });

  it('lets only users who may create releases build, and writes nothing for the others', async () => {
    const before = await releaseCount();
    const response = await upload(await tarball({ 'docker-compose.yml': compose }), 'observer');
    expect(response.statusCode, response.body).toBe(401);
    expect(await releaseCount()).toBe(before);
  });
});

describe('a gzip bomb posted to the builder', () => {
  it('is refused at the unpacked limit, without inflating it in memory', async () => {
    // 2 GiB of tar once inflated, about 2 MiB as sent.
    const bomb = gzipBomb(2048);
    expect(bomb.length).toBeLessThan(builderLimits.projectBytes);
    const before = await releaseCount();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const baseline = process.memoryUsage().rss;
    try {
      const response = await upload(bomb);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(/unpacks to more than 200 MiB/);
    } finally {
      clearInterval(sampler);
    }
    // Inflated in full, it would hold gigabytes at once.
    expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
    expect(await releaseCount()).toBe(before);
  });
});

describe('uploads to the builder', () => {
  it('are counted per user per hour and refused with 429 past the limit, before unpacking', async () => {
    const limited = await createTestApp(ctx, (scoped, appCtx) =>
      registerBuilder(scoped, appCtx, { countUpload: createBuildLimit(appCtx, 'upload', 2) }),
    );
    const uploader = await createUser(db, 'uploader');
    await addFleetMember(db, uploader.userId, fleet.id, 'developer');
    tokens.set('uploader', await issueSessionToken(ctx, db, uploader.userId));
    try {
      const send = (body: Buffer, user: string) =>
        limited.inject({
          method: 'POST',
          url: `/builder/v1/applications/${fleet.id}/releases`,
          headers: {
            authorization: `Bearer ${tokens.get(user) ?? ''}`,
            'content-type': 'application/gzip',
          },
          payload: body,
        });
      const project = await tarball({ 'docker-compose.yml': compose });
      expect((await send(project, 'uploader')).statusCode).toBe(201);
      // A refused project counts too: the server unpacked it.
      expect((await send(Buffer.from('not a tarball'), 'uploader')).statusCode).toBe(400);
      const refused = await send(gzipBomb(2048), 'uploader');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // An observer, who may not build, is refused as before and counts nothing.
      expect((await send(project, 'observer')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
