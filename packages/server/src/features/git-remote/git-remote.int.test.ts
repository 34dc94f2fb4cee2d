import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { gitRemoteUrl } from '@flotilla/shared/releases/git-remote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { rateLimitMessage } from '../../infra/rate-limit/rate-limiter.js';
import {
  addFleetMember,
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import { createGitCommand } from './git-command.js';
import { gitMissingMessage, hookMissingMessage, registerGitRemote } from './register-git-remote.js';

let db: Database;
let app: FastifyInstance;
let base: string;
let fleet: FleetFixture;
let workDir: string;
const keys = new Map<string, string>();

type GitOutcome = { code: number; output: string };

// The real git client, isolated from the machine's configuration.
const git = (cwd: string, ...args: string[]): Promise<GitOutcome> =>
  new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: workDir,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_TERMINAL_PROMPT: '0',
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });

let projects = 0;

// A new repository with one commit holding the files; answers its directory and the commit.
const project = async (files: Record<string, string>): Promise<{ dir: string; commit: string }> => {
  projects += 1;
  const dir = path.join(workDir, `project-${projects}`);
  expect((await git(workDir, 'init', '-q', '-b', 'main', dir)).code).toBe(0);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  expect((await git(dir, 'add', '-A')).code).toBe(0);
  expect((await git(dir, 'commit', '-q', '-m', 'release')).code).toBe(0);
  const head = await git(dir, 'rev-parse', 'HEAD');
  return { dir, commit: head.output.trim() };
};

// The URL the console shows, with the credentials git would ask for.
const remote = (password: string, slug = fleet.slug): string =>
  gitRemoteUrl(base.replace('://', `://user:${encodeURIComponent(password)}@`), slug);

const push = (dir: string, url: string, refspec = 'main'): Promise<GitOutcome> =>
  git(dir, 'push', url, refspec);

const releases = async (): Promise<{ id: number; commit: string; status: string }[]> =>
  (
    await db.query<{ id: number; commit: string; status: string }>(
      'SELECT "id", "commit", "status" FROM "release" WHERE "belongs_to__application" = $1 ORDER BY "id"',
      [fleet.id],
    )
  ).rows;

// A test of pushes and clones, each a handful of processes (git's client, http-backend,
// receive-pack, the hook's node): room on a busy machine. Only bounds a broken test.
const gitTestTimeoutMs = 90_000;

const compose = `services:
  web:
    image: nginx:1.27
  worker:
    image: ghcr.io/acme/worker:2
`;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'flotilla-git-remote-'));
  db = await createTestDatabase();
  const ctx = createTestContext(db, { config: { dataDir: path.join(workDir, 'data') } });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
  // A hooks folder whose pre-receive lost its executable mode.
  const brokenHooks = path.join(workDir, 'broken-hooks');
  await mkdir(brokenHooks);
  await writeFile(path.join(brokenHooks, 'pre-receive'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
  app = await createTestApp(
    ctx,
    registerGitRemote,
    (scoped) =>
      scoped.register(
        async (missing) =>
          registerGitRemote(missing, ctx, { git: createGitCommand('/nonexistent/git') }),
        { prefix: '/missing' },
      ),
    (scoped) =>
      scoped.register(async (broken) => registerGitRemote(broken, ctx, { hooksDir: brokenHooks }), {
        prefix: '/broken',
      }),
    // A pusher who built as often as the hour allows.
    (scoped) =>
      scoped.register(
        async (limited) =>
          registerGitRemote(limited, ctx, {
            countBuild: async () => {
              throw new ApiError('rate_limited', rateLimitMessage, { retryAfterSeconds: 60 });
            },
          }),
        { prefix: '/limited' },
      ),
  );
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await createUser(db, 'owner');
  const observer = await createUser(db, 'observer');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  await addOrganizationMember(db, observer.userId, organization, 'member');
  fleet = await createFleet(db, organization, 'builds');
  await addFleetMember(db, observer.userId, fleet.id, 'observer');
  keys.set('owner', await createApiKey(db, owner.actorId, { name: 'git' }));
  keys.set('owner-session', await issueSessionToken(ctx, db, owner.userId));
  keys.set('observer', await createApiKey(db, observer.actorId, { name: 'git' }));
  // A user of another organization, who cannot see the fleet.
  const stranger = await createUser(db, 'stranger');
  await addOrganizationMember(db, stranger.userId, await createOrganization(db, 'other'), 'member');
  keys.set('stranger', await createApiKey(db, stranger.actorId, { name: 'git' }));
  const unverified = await createUser(db, 'unverified');
  await addOrganizationMember(db, unverified.userId, organization, 'administrator');
  await db.query(
    'UPDATE "user" SET "must_be_verified" = true, "is_verified" = false WHERE "id" = $1',
    [unverified.userId],
  );
  keys.set('unverified', await createApiKey(db, unverified.actorId, { name: 'git' }));
});

afterAll(async () => {
  await app.close();
  await db.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('the git remote of a fleet', () => {
  it('refuses a push body over the size limit before git reads it', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/git/${fleet.slug}.git/git-receive-pack`,
      headers: {
        authorization: `Bearer ${keys.get('owner') ?? ''}`,
        'content-type': 'application/x-git-receive-pack-request',
      },
      payload: Buffer.alloc(builderLimits.projectBytes + 2 * 1024 * 1024),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/The push is larger than 20 MiB/);
  });

  it(
    'builds a pushed commit into a release and shows the build log to the pushing client',
    async () => {
      const { dir, commit } = await project({
        'docker-compose.yml': compose,
        'balena.yml': 'name: builds\nversion: 1.2.3\n',
      });
      const pushed = await push(dir, remote(keys.get('owner') ?? ''));
      expect(pushed.output).toContain('remote: [web] Using image nginx:1.27');
      expect(pushed.output).toContain('remote: [worker] Using image ghcr.io/acme/worker:2');
      expect(pushed.output).toContain('remote: Build succeeded');
      expect(pushed.code, pushed.output).toBe(0);
      const [release] = await releases();
      expect(release).toEqual({ id: expect.any(Number), commit, status: 'success' });
      expect(pushed.output).toContain(
        `remote: Release ${release?.id ?? 0} of ${fleet.slug} created`,
      );
      const { rows: images } = await db.query(
        `SELECT s."service_name", i."is_stored_at__image_location" AS "location", r."semver"
         FROM "release" r JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         JOIN "image" i ON i."id" = ri."image" JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE r."commit" = $1 ORDER BY s."service_name"`,
        [commit],
      );
      expect(images).toEqual([
        { service_name: 'web', location: 'nginx:1.27', semver: '1.2.3' },
        { service_name: 'worker', location: 'ghcr.io/acme/worker:2', semver: '1.2.3' },
      ]);

      // The next commit on top, pushed with a session token as the password, builds again.
      await writeFile(path.join(dir, 'docker-compose.yml'), compose.replace('1.27', '1.28'));
      expect((await git(dir, 'commit', '-q', '-am', 'newer nginx')).code).toBe(0);
      const next = await push(dir, remote(keys.get('owner-session') ?? ''));
      expect(next.code, next.output).toBe(0);
      expect(next.output).toContain('remote: [web] Using image nginx:1.28');
      expect(await releases()).toHaveLength(2);

      // The same commit pushed as master is already a release: nothing is built twice.
      const again = await push(dir, remote(keys.get('owner') ?? ''), 'main:refs/heads/master');
      expect(again.code, again.output).toBe(0);
      expect(again.output).toMatch(/remote: Commit [0-9a-f]{7} is already release \d+/);
      expect(await releases()).toHaveLength(2);

      // The remote can be cloned back by those who may push.
      const clone = path.join(workDir, 'clone');
      const cloned = await git(workDir, 'clone', '-q', remote(keys.get('owner') ?? ''), clone);
      expect(cloned.code, cloned.output).toBe(0);
      expect(await readFile(path.join(clone, 'docker-compose.yml'), 'utf8')).toContain('1.28');
      const refused = await git(
        workDir,
        'clone',
        '-q',
        remote(keys.get('observer') ?? ''),
        `${clone}-2`,
      );
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain('remote: You may not push to fleet');
    },
    gitTestTimeoutMs,
  );

  it(
    'refuses a push whose build fails, with the builder message, and creates nothing',
    async () => {
      const before = await releases();
      const { dir } = await project({
        'docker-compose.yml':
          'services:\n  app:\n    build: ./app\n  db:\n    image: postgres:17\n',
      });
      const pushed = await push(dir, remote(keys.get('owner') ?? ''), '+main:refs/heads/main');
      expect(pushed.code).not.toBe(0);
      expect(pushed.output).toMatch(/remote: \[app\] Error: This server does not build images/);
      expect(pushed.output).toContain('remote: The push is refused: the build failed');
      expect(pushed.output).toContain('pre-receive hook declined');
      expect(await releases()).toEqual(before);
    },
    gitTestTimeoutMs,
  );

  it(
    'refuses a project without a compose file with the builder message',
    async () => {
      const before = await releases();
      const { dir } = await project({ 'README.md': '# nothing to run\n' });
      const pushed = await push(dir, remote(keys.get('owner') ?? ''), '+main:refs/heads/main');
      expect(pushed.code).not.toBe(0);
      expect(pushed.output).toMatch(/remote: Error: The project has no docker-compose.yml/);
      expect(await releases()).toEqual(before);
    },
    gitTestTimeoutMs,
  );

  it(
    'counts a push that builds with the builder uploads, and refuses it past the hourly limit',
    async () => {
      const before = await releases();
      const { dir } = await project({ 'docker-compose.yml': compose });
      const limited = gitRemoteUrl(
        `${base.replace('://', `://user:${encodeURIComponent(keys.get('owner') ?? '')}@`)}/limited`,
        fleet.slug,
      );
      const pushed = await push(dir, limited, '+main:refs/heads/main');
      expect(pushed.code).not.toBe(0);
      expect(pushed.output).toContain(`remote: Error: ${rateLimitMessage}`);
      expect(pushed.output).toContain('remote: The push is refused, and nothing was created');
      expect(await releases()).toEqual(before);
    },
    gitTestTimeoutMs,
  );

  it(
    'keeps a push to another branch without building it, and says so',
    async () => {
      const before = await releases();
      const { dir } = await project({ 'docker-compose.yml': compose });
      const pushed = await push(dir, remote(keys.get('owner') ?? ''), 'main:refs/heads/feature');
      expect(pushed.code, pushed.output).toBe(0);
      expect(pushed.output).toContain('remote: feature: stored, not built');
      expect(await releases()).toEqual(before);
    },
    gitTestTimeoutMs,
  );

  it(
    'refuses a wrong key, a user who may not create releases, and an unknown fleet; nothing runs',
    async () => {
      const before = await releases();
      const { dir } = await project({ 'docker-compose.yml': compose });
      const wrong = await push(dir, remote('not-a-key'));
      expect(wrong.code).not.toBe(0);
      expect(wrong.output).toContain('Authentication failed');
      const observer = await push(dir, remote(keys.get('observer') ?? ''));
      expect(observer.code).not.toBe(0);
      expect(observer.output).toContain(`remote: You may not push to fleet ${fleet.slug}`);
      expect(observer.output).toContain('403');
      const unverified = await push(dir, remote(keys.get('unverified') ?? ''));
      expect(unverified.code).not.toBe(0);
      expect(unverified.output).toContain('remote: Verify your e-mail address first');
      const unknown = await push(dir, remote(keys.get('owner') ?? '', 'acme/nowhere'));
      expect(unknown.code).not.toBe(0);
      expect(unknown.output).toContain('remote: Fleet acme/nowhere not found');
      expect(await releases()).toEqual(before);
    },
    gitTestTimeoutMs,
  );

  it('answers a fleet the user cannot see exactly as an unknown one', async () => {
    const refs = (slug: string, user: string) =>
      app.inject({
        method: 'GET',
        url: `/git/${slug}.git/info/refs?service=git-receive-pack`,
        headers: { authorization: `Bearer ${keys.get(user) ?? ''}` },
      });
    const hidden = await refs(fleet.slug, 'stranger');
    const unknown = await refs('acme/nowhere', 'stranger');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('Fleet acme/nowhere not found');
    expect(hidden.statusCode).toBe(unknown.statusCode);
    expect(hidden.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(hidden.body).toBe(`Fleet ${fleet.slug} not found`);
    // A member who sees the fleet but may not create its releases is told so.
    const observer = await refs(fleet.slug, 'observer');
    expect(observer.statusCode).toBe(403);
    expect(observer.body).toMatch(/^You may not push to fleet /);
  });

  it('asks for credentials, and answers 503 where git is missing', async () => {
    const anonymous = await app.inject({
      method: 'GET',
      url: `/git/${fleet.slug}.git/info/refs?service=git-receive-pack`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic /);
    const missing = await app.inject({
      method: 'GET',
      url: `/missing/git/${fleet.slug}.git/info/refs?service=git-receive-pack`,
      headers: { authorization: `Bearer ${keys.get('owner') ?? ''}` },
    });
    expect(missing.statusCode).toBe(503);
    expect(missing.body).toBe(gitMissingMessage);
    const broken = await app.inject({
      method: 'GET',
      url: `/broken/git/${fleet.slug}.git/info/refs?service=git-receive-pack`,
      headers: { authorization: `Bearer ${keys.get('owner') ?? ''}` },
    });
    expect(broken.statusCode, broken.body).toBe(503);
    expect(broken.body).toBe(hookMissingMessage);
    const dumb = await app.inject({
      method: 'GET',
      url: `/git/${fleet.slug}.git/info/refs`,
      headers: { authorization: `Bearer ${keys.get('owner') ?? ''}` },
    });
    expect(dumb.statusCode).toBe(400);
    expect(dumb.body).toMatch(/smart HTTP only/);
  });
});
