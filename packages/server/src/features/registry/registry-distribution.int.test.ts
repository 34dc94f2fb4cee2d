import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addFleetMember,
  createDevice,
  createFleet,
  createOrganization,
  createRelease,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../../test-support/distribution-registry.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerRegistry } from './register-registry.js';

// Flotilla's registry tokens against a real CNCF distribution registry (Debian's docker-registry,
// which `npm test` installs when it is missing), configured as docs/RELEASES.md says: a fleet developer
// pushes an image, a device of the fleet pulls it, and the registry refuses everyone else. The
// registry checks the tokens itself (signature against Flotilla's certificate, issuer, service,
// expiry, scopes): nothing here trusts Flotilla's own reading of them.

let db: Database;
let app: FastifyInstance;
let registry: DistributionRegistry;
let workDir: string;
let registryHost = '';
const keys = new Map<string, string>();
const repo = { fleetA: '', fleetB: '' };

const key = (name: string): string => {
  const value = keys.get(name);
  if (value === undefined) throw new Error(`no key ${name}`);
  return value;
};

// A token from Flotilla for `scopes`, as docker asks for it (Basic, the key as the password).
const tokenFor = async (name: string, scopes: string[]): Promise<string> => {
  const query = [`service=${encodeURIComponent(registryHost)}`]
    .concat(scopes.map((scope) => `scope=${encodeURIComponent(scope)}`))
    .join('&');
  const response = await app.inject({
    method: 'GET',
    url: `/auth/v1/token?${query}`,
    headers: { authorization: `Basic ${Buffer.from(`${name}:${key(name)}`).toString('base64')}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (JSON.parse(response.body) as { token: string }).token;
};

type RegistryRequest = { method?: string; headers?: Record<string, string>; body?: string };

const registryFetch = (path: string, token: string | undefined, init: RegistryRequest = {}) =>
  fetch(`http://${registryHost}${path}`, {
    ...init,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...init.headers,
    },
  });

const digestOf = (content: Buffer): string =>
  `sha256:${createHash('sha256').update(content).digest('hex')}`;

// Uploads a blob in one request (POST, then PUT with the digest); answers the PUT's status.
const pushBlob = async (repository: string, token: string, content: Buffer): Promise<number> => {
  const start = await registryFetch(`/v2/${repository}/blobs/uploads/`, token, { method: 'POST' });
  if (start.status !== 202) return start.status;
  const location = new URL(start.headers.get('location') ?? '', `http://${registryHost}`);
  location.searchParams.set('digest', digestOf(content));
  const put = await fetch(location, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: content,
  });
  return put.status;
};

// A minimal image: a config and one layer (the registry checks digests and sizes, not contents).
const pushImage = async (repository: string, token: string): Promise<number> => {
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'arm64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: [] },
    }),
  );
  const layer = randomBytes(64);
  for (const blob of [config, layer]) {
    const status = await pushBlob(repository, token, blob);
    if (status !== 201) return status;
  }
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
    config: {
      mediaType: 'application/vnd.docker.container.image.v1+json',
      size: config.length,
      digest: digestOf(config),
    },
    layers: [
      {
        mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
        size: layer.length,
        digest: digestOf(layer),
      },
    ],
  });
  const put = await registryFetch(`/v2/${repository}/manifests/latest`, token, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.docker.distribution.manifest.v2+json' },
    body: manifest,
  });
  return put.status;
};

const pullManifest = async (repository: string, token: string): Promise<number> =>
  (
    await registryFetch(`/v2/${repository}/manifests/latest`, token, {
      headers: { accept: 'application/vnd.docker.distribution.manifest.v2+json' },
    })
  ).status;

// An image of a new release of the fleet, stored in the test registry; answers its repository.
const imageOf = async (fleetId: number, commit: string): Promise<string> => {
  const release = await createRelease(db, fleetId, commit);
  const { rows: services } = await db.query<{ id: number }>(
    `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
    [fleetId],
  );
  const repository = `v2/${randomBytes(16).toString('hex')}`;
  const { rows: images } = await db.query<{ id: number }>(
    `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
     VALUES ($1, $2, 'success') RETURNING "id"`,
    [services[0]?.id ?? 0, `${registryHost}/${repository}`],
  );
  await db.query('INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)', [
    images[0]?.id ?? 0,
    release,
  ]);
  return repository;
};

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'flotilla-distribution-'));
  const dataDir = join(workDir, 'flotilla');
  registry = await startDistributionRegistry(workDir, dataDir);
  registryHost = registry.host;

  db = await createTestDatabase();
  const ctx = createTestContext(db, {
    config: { dataDir, registry: { url: `http://${registryHost}`, host: registryHost } },
  });
  app = await createTestApp(ctx, registerRegistry);
  const organization = await createOrganization(db, 'distribution');
  const fleetA = await createFleet(db, organization, 'alpha');
  const fleetB = await createFleet(db, organization, 'beta');
  repo.fleetA = await imageOf(fleetA.id, 'a1');
  repo.fleetB = await imageOf(fleetB.id, 'b1');
  for (const [name, role] of [
    ['developer', 'developer'],
    ['observer', 'observer'],
  ] as const) {
    const user = await createUser(db, name);
    await addFleetMember(db, user.userId, fleetA.id, role);
    keys.set(name, await createApiKey(db, user.actorId, {}));
  }
  // An observer of A who develops on B, whose fleet holds an image copying A's location (older
  // rows may; the API refuses it now).
  const mixed = await createUser(db, 'mixed');
  await addFleetMember(db, mixed.userId, fleetA.id, 'observer');
  await addFleetMember(db, mixed.userId, fleetB.id, 'developer');
  keys.set('mixed', await createApiKey(db, mixed.actorId, {}));
  const { rows: copy } = await db.query<{ id: number }>(
    `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'copy') RETURNING "id"`,
    [fleetB.id],
  );
  await db.query(
    `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
     VALUES ($1, $2, 'success')`,
    [copy[0]?.id ?? 0, `${registryHost}/${repo.fleetA}`],
  );
  for (const [name, fleet] of [
    ['deviceA', fleetA],
    ['deviceB', fleetB],
  ] as const) {
    const device = await createDevice(db, fleet.id, name);
    keys.set(name, await createApiKey(db, device.actorId, {}));
  }
}, 60_000);

afterAll(async () => {
  await registry.stop();
  await app.close();
  await db.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("Flotilla's registry tokens on a real registry", () => {
  it('asks for a token (Bearer challenge naming its service) before anything', async () => {
    const response = await registryFetch(`/v2/${repo.fleetA}/manifests/latest`, undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`service="${registryHost}"`);
  });

  it("lets a fleet developer push, the fleet's device pull, and nobody else either", async () => {
    const pushPull = `repository:${repo.fleetA}:pull,push`;
    expect(await pushImage(repo.fleetA, await tokenFor('developer', [pushPull]))).toBe(201);
    // The fleet's device pulls what was pushed.
    expect(await pullManifest(repo.fleetA, await tokenFor('deviceA', [pushPull]))).toBe(200);
    // An observer and another fleet's device get tokens that the registry refuses.
    expect(await pushImage(repo.fleetA, await tokenFor('observer', [pushPull]))).toBe(401);
    expect(await pullManifest(repo.fleetA, await tokenFor('observer', [pushPull]))).toBe(401);
    expect(await pullManifest(repo.fleetA, await tokenFor('deviceB', [pushPull]))).toBe(401);
    // A device never pushes, not even to its own fleet.
    expect(await pushImage(repo.fleetA, await tokenFor('deviceA', [pushPull]))).toBe(401);
    // A token is for the repositories it names: the developer's is no good on another fleet's.
    expect(await pushImage(repo.fleetB, await tokenFor('developer', [pushPull]))).toBe(401);
  });

  it("refuses an observer of a fleet who develops on another that copied the fleet's image location", async () => {
    const pushPull = `repository:${repo.fleetA}:pull,push`;
    expect(await pushImage(repo.fleetA, await tokenFor('mixed', [pushPull]))).toBe(401);
    expect(await pullManifest(repo.fleetA, await tokenFor('mixed', [pushPull]))).toBe(401);
  });

  it('refuses a token signed by another key, though its claims would do', async () => {
    const forged = await tokenFor('developer', [`repository:${repo.fleetA}:pull,push`]);
    const [header, payload] = forged.split('.');
    const tampered = `${header}.${payload}.${Buffer.from(randomBytes(64)).toString('base64url')}`;
    expect(await pullManifest(repo.fleetA, tampered)).toBe(401);
  });
});
