import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
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
import { projectTarball } from '../../test-support/project-tarball.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitForValue } from '../../test-support/wait-for.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { loadRegistrySigningKey } from '../registry/registry-signing-key.js';
import { signRegistryToken } from '../registry/registry-token.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import { registerBuilder } from './register-builder.js';

// The builder on a real engine and registry: a private dockerd (no bridge network, no firewall
// rules) builds images from scratch with Debian's static busybox, so nothing is pulled from
// outside, and pushes them to a CNCF distribution registry that trusts Flotilla's tokens.

let db: Database;
let app: FastifyInstance;
let engine: DockerEngine;
let registry: DistributionRegistry;
let workDir: string;
let dataDir: string;
let fleet: FleetFixture;
let token = '';
let busybox: Buffer;
// Serves the tarballs of /v3/buildFromUrl builds, by path.
let projectServer: Server;
let projectOrigin = '';
const served = new Map<string, Buffer>();

type Result = { releaseId: number; status: string; log: string[] };
type ImageRow = {
  service: string;
  status: string;
  location: string;
  digest: string | null;
  size: string | null;
  log: string | null;
  error: string | null;
};

const upload = async (files: Record<string, string | Buffer>): Promise<Result> => {
  const response = await app.inject({
    method: 'POST',
    url: `/builder/v1/applications/${fleet.id}/releases`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
    payload: await projectTarball(files, {
      executables: Object.keys(files).filter((name) => name.endsWith('busybox')),
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Result>();
};

const imagesOf = async (releaseId: number): Promise<ImageRow[]> =>
  (
    await db.query<ImageRow>(
      `SELECT s."service_name" AS "service", i."status", i."is_stored_at__image_location" AS "location",
              i."content_hash" AS "digest", i."image_size"::text AS "size", i."build_log" AS "log",
              i."error_message" AS "error"
         FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
         JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE ri."is_part_of__release" = $1 ORDER BY s."service_name"`,
      [releaseId],
    )
  ).rows;

const releaseOf = async (releaseId: number) =>
  (
    await db.query<{ status: string; log: string; composition: unknown }>(
      'SELECT "status", "build_log" AS "log", "composition" FROM "release" WHERE "id" = $1',
      [releaseId],
    )
  ).rows[0];

// The manifest the registry serves for the image's digest, read with a pull token of its own.
const manifestStatus = async (location: string, digest: string): Promise<number> => {
  const repository = location.slice(registry.host.length + 1);
  const pull = await signRegistryToken(await loadRegistrySigningKey(dataDir), {
    issuer: 'flotilla',
    audience: registry.host,
    subject: 'test',
    access: [{ type: 'repository', name: repository, actions: ['pull'] }],
    now: new Date(),
  });
  const response = await fetch(`http://${registry.host}/v2/${repository}/manifests/${digest}`, {
    headers: {
      authorization: `Bearer ${pull.token}`,
      accept: [
        'application/vnd.docker.distribution.manifest.v2+json',
        'application/vnd.oci.image.manifest.v1+json',
      ].join(', '),
    },
  });
  expect(response.headers.get('docker-content-digest')).toBe(digest);
  return response.status;
};

// A device type of this machine's CPU architecture, which the engine builds for.
const machine =
  process.arch === 'arm64'
    ? { deviceType: 'raspberrypi4-64', arch: 'aarch64' }
    : { deviceType: 'generic-amd64', arch: 'amd64' };

const fromScratch = (...steps: string[]): string =>
  [
    'FROM scratch',
    'COPY busybox /bin/busybox',
    'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
    ...steps,
    '',
  ].join('\n');

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'flotilla-image-build-'));
  dataDir = join(workDir, 'flotilla');
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
      // Builds without a network: their steps see only loopback.
      builderNetwork: false,
      builderAllowedNetworks: ['127.0.0.1/32'],
    },
  });
  projectServer = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/gzip' });
    response.end(body);
  });
  await new Promise<void>((resolve) => projectServer.listen(0, '127.0.0.1', resolve));
  const address = projectServer.address();
  projectOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: registry.host });
  app = await createTestApp(ctx, registerBuilder);
  const owner = await createUser(db, 'owner');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  // A fleet whose devices run what the engine builds (this machine's architecture).
  fleet = await createFleet(db, organization, 'built', { deviceType: machine.deviceType });
  token = await issueSessionToken(ctx, db, owner.userId);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => projectServer.close(resolve));
  await app.close();
  await db.close();
  await Promise.all([engine.stop(), registry.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('the builder with a container engine', () => {
  it('builds a two-service project and pushes both images, whose digests the registry serves', async () => {
    const result = await upload({
      'docker-compose.yml': [
        'services:',
        '  web:',
        '    build: ./web',
        '  worker:',
        '    build:',
        '      context: worker',
        '      dockerfile: worker.Dockerfile',
        '      args:',
        '        GREETING: hello-from-args',
        '',
      ].join('\n'),
      // What .dockerignore names never reaches the engine.
      'web/Dockerfile': fromScratch(
        'RUN test "$(ls /sys/class/net)" = lo',
        'COPY . /src',
        'RUN test -e /src/Dockerfile && test ! -e /src/secret.txt',
      ),
      'web/busybox': busybox,
      'web/.dockerignore': 'secret.txt\n',
      'web/secret.txt': 'not for the image',
      'worker/worker.Dockerfile': fromScratch(
        'ARG GREETING',
        'RUN echo "greeting=$GREETING"',
        'COPY . /src',
      ),
      'worker/busybox': busybox,
    });
    expect(result.status, result.log.join('\n')).toBe('success');
    expect(result.log).toContain('[worker] greeting=hello-from-args');
    expect(result.log.at(-1)).toBe('Build succeeded');
    const images = await imagesOf(result.releaseId);
    expect(images.map((image) => [image.service, image.status])).toEqual([
      ['web', 'success'],
      ['worker', 'success'],
    ]);
    for (const image of images) {
      expect(image.location).toMatch(new RegExp(`^${registry.host}/v2/[0-9a-f]{32}$`));
      expect(image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Number(image.size)).toBeGreaterThan(busybox.length);
      expect(await manifestStatus(image.location, image.digest ?? '')).toBe(200);
    }
    const release = await releaseOf(result.releaseId);
    expect(release?.status).toBe('success');
    expect(release?.log).toBe(result.log.join('\n'));
    // Nothing of the registry token reaches the log.
    expect(release?.log).not.toMatch(/eyJ/);
  }, 300_000);

  it('ends failed with the Dockerfile error in the build log when a RUN fails', async () => {
    const result = await upload({
      'docker-compose.yml': 'services:\n  app:\n    build: .\n',
      Dockerfile: fromScratch('RUN echo "about to fail" && exit 3'),
      busybox,
    });
    expect(result.status).toBe('failed');
    const log = result.log.join('\n');
    expect(log).toMatch(/\[app\] about to fail/);
    expect(log).toMatch(/\[app\] Error: .*returned a non-zero code: 3/);
    expect(result.log.at(-1)).toBe('Build failed: see the services above');
    const [image] = await imagesOf(result.releaseId);
    expect(image).toMatchObject({
      status: 'failed',
      digest: null,
      error: expect.stringMatching(/returned a non-zero code: 3/),
    });
    expect((await releaseOf(result.releaseId))?.status).toBe('failed');
  }, 300_000);

  it("builds a single-Dockerfile project as service main, Dockerfile.template filled in for the fleet's device type", async () => {
    const result = await upload({
      'Dockerfile.template': fromScratch(
        'RUN echo "machine=%%BALENA_MACHINE_NAME%% arch=%%BALENA_ARCH%%"',
      ),
      busybox,
    });
    expect(result.status, result.log.join('\n')).toBe('success');
    expect(result.log).toContain(`[main] machine=${machine.deviceType} arch=${machine.arch}`);
    const images = await imagesOf(result.releaseId);
    expect(images).toEqual([
      expect.objectContaining({
        service: 'main',
        status: 'success',
        digest: expect.stringMatching(/^sha256:/),
      }),
    ]);
    const release = await releaseOf(result.releaseId);
    expect(release?.composition).toMatchObject({ services: { main: { build: { context: '.' } } } });
  }, 300_000);

  it('builds a project deployed from a URL (POST /v3/buildFromUrl) after its answer', async () => {
    served.set(
      '/project.tar.gz',
      await projectTarball(
        {
          'project-main/docker-compose.yml': 'services:\n  app:\n    build: .\n',
          'project-main/Dockerfile': fromScratch('RUN echo "built from a URL"'),
          'project-main/busybox': busybox,
        },
        { executables: ['project-main/busybox'] },
      ),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/v3/buildFromUrl?headless=true&owner=acme&app=built',
      headers: { authorization: `Bearer ${token}` },
      payload: { url: `${projectOrigin}/project.tar.gz` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { releaseId } = response.json<{ releaseId: number }>();
    const release = await waitForValue(
      'the build from the URL to end',
      () => releaseOf(releaseId),
      (row) => row?.status !== 'running',
      120_000,
    );
    expect(release?.status, release?.log).toBe('success');
    expect(release?.log).toMatch(/\[app\] built from a URL/);
    const [image] = await imagesOf(releaseId);
    expect(image?.digest).toMatch(/^sha256:/);
    expect(await manifestStatus(image?.location ?? '', image?.digest ?? '')).toBe(200);
  }, 300_000);
});
