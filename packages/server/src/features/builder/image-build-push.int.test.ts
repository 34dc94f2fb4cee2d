import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { gitRemoteUrl } from '@flotilla/shared/releases/git-remote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { type DockerEngine, startDockerEngine } from '../../test-support/docker-engine.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../../test-support/distribution-registry.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerGitRemote } from '../git-remote/register-git-remote.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';

// git push to a fleet's remote with a container engine configured: the pushed commit's services
// are built and pushed to the registry, the build's output coming back as `remote:` lines; a
// failing build refuses the push and leaves no release.

let db: Database;
let app: FastifyInstance;
let engine: DockerEngine;
let registry: DistributionRegistry;
let workDir: string;
let base = '';
let apiKey = '';
let fleet: FleetFixture;
let busybox: Buffer;

type GitOutcome = { code: number; output: string };

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

// Pushes a new repository holding the files (busybox executable) to the fleet's remote.
const pushProject = async (files: Record<string, string>): Promise<GitOutcome> => {
  projects += 1;
  const dir = path.join(workDir, `project-${projects}`);
  expect((await git(workDir, 'init', '-q', '-b', 'main', dir)).code).toBe(0);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  for (const folder of new Set(Object.keys(files).map((name) => path.dirname(name)))) {
    await writeFile(path.join(dir, folder, 'busybox'), busybox, { mode: 0o755 });
  }
  expect((await git(dir, 'add', '-A')).code).toBe(0);
  expect((await git(dir, 'commit', '-q', '-m', 'release')).code).toBe(0);
  const url = gitRemoteUrl(
    base.replace('://', `://user:${encodeURIComponent(apiKey)}@`),
    fleet.slug,
  );
  // Each project is a new history: forced over the previous push.
  return git(dir, 'push', '--force', url, 'main');
};

const releases = async (): Promise<{ id: number; status: string }[]> =>
  (
    await db.query<{ id: number; status: string }>(
      'SELECT "id", "status" FROM "release" WHERE "belongs_to__application" = $1 ORDER BY "id"',
      [fleet.id],
    )
  ).rows;

// A device type of this machine's CPU architecture, which the engine builds for.
const machine =
  process.arch === 'arm64'
    ? { deviceType: 'raspberrypi4-64', arch: 'aarch64' }
    : { deviceType: 'generic-amd64', arch: 'amd64' };

const dockerfile = (...steps: string[]): string =>
  ['FROM scratch', 'COPY busybox /bin/busybox', 'RUN ["/bin/busybox", "--install", "-s", "/bin"]']
    .concat(steps, '')
    .join('\n');

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'flotilla-push-build-'));
  const dataDir = path.join(workDir, 'data');
  busybox = await readFile('/bin/busybox');
  [engine, registry] = await Promise.all([
    startDockerEngine(),
    startDistributionRegistry(workDir, dataDir),
  ]);
  db = await createTestDatabase();
  const ctx = createTestContext(db, {
    config: {
      dataDir,
      registry: { url: `http://${registry.host}`, host: registry.host },
      builderDockerHost: { socketPath: engine.socket },
    },
  });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: registry.host });
  app = await createTestApp(ctx, registerGitRemote);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await createUser(db, 'owner');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  // A fleet whose devices run what the engine builds (this machine's architecture).
  fleet = await createFleet(db, organization, 'pushed', {
    deviceType: machine.deviceType,
  });
  apiKey = await createApiKey(db, owner.actorId, { name: 'git' });
}, 120_000);

afterAll(async () => {
  await app.close();
  await db.close();
  await Promise.all([engine.stop(), registry.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('git push with a container engine', () => {
  it('builds the services of the pushed commit, its output as remote: lines', async () => {
    const pushed = await pushProject({
      'docker-compose.yml': 'services:\n  web:\n    build: web\n  worker:\n    build: worker\n',
      'web/Dockerfile': dockerfile('RUN echo "web is built"'),
      'worker/Dockerfile': dockerfile('RUN echo "worker is built"'),
    });
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toMatch(/remote: \[web\] web is built/);
    expect(pushed.output).toMatch(/remote: \[worker\] worker is built/);
    expect(pushed.output).toMatch(/remote: Build succeeded/);
    const [release] = await releases();
    expect(release?.status).toBe('success');
    const { rows: images } = await db.query<{ status: string; digest: string | null }>(
      `SELECT i."status", i."content_hash" AS "digest"
         FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
        WHERE ri."is_part_of__release" = $1`,
      [release?.id ?? 0],
    );
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image).toEqual({ status: 'success', digest: expect.stringMatching(/^sha256:/) });
    }
  }, 300_000);

  it('refuses the push of a failing build, with its error, and leaves no release', async () => {
    const before = await releases();
    const pushed = await pushProject({
      'docker-compose.yml': 'services:\n  app:\n    build: .\n',
      Dockerfile: dockerfile('RUN echo "about to fail" && exit 7'),
    });
    expect(pushed.code).not.toBe(0);
    expect(pushed.output).toMatch(/remote: \[app\] Error: .*returned a non-zero code: 7/);
    expect(pushed.output).toMatch(/The push is refused: the build failed/);
    expect(await releases()).toEqual(before);
  }, 300_000);

  it("builds a pushed single-Dockerfile project as service main, its template filled in for the fleet's device type", async () => {
    const before = await releases();
    const pushed = await pushProject({
      'Dockerfile.template': dockerfile('RUN echo "for %%BALENA_MACHINE_NAME%% (%%BALENA_ARCH%%)"'),
    });
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toContain(`remote: [main] for ${machine.deviceType} (${machine.arch})`);
    const after = await releases();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)?.status).toBe('success');
  }, 300_000);
});
