import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../infra/config/config.js';
import { type RunningServer, startServer } from '../../start-server.js';
import {
  type DockerEngine,
  engineGet,
  startDockerEngine,
} from '../../test-support/docker-engine.js';
import { freePort } from '../../test-support/free-port.js';
import { createTestDatabaseUrl } from '../../test-support/test-database.js';
import { loadRegistrySigningKey } from '../registry/registry-signing-key.js';
import { signRegistryToken } from '../registry/registry-token.js';
import { demoFleetBuiltOn, demoFleetSlugOf } from './seed-demo.js';

// `npm start` on a machine with a container engine: the server runs its own registry, and the
// demo's first release of the fleet the engine builds for is built for real, from the host's
// static busybox, with images the registry serves.

let engine: DockerEngine;
let dataDir: string;
let database: { url: string; drop(): Promise<void> };
let running: RunningServer | undefined;
const printed: string[] = [];

type ImageRow = { service: string; location: string; digest: string | null; status: string };

beforeAll(async () => {
  engine = await startDockerEngine();
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-demo-build-'));
  database = await createTestDatabaseUrl();
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    FLOTILLA_DATA_DIR: dataDir,
    FLOTILLA_ADMIN_EMAIL: 'admin@example.com',
    FLOTILLA_ADMIN_PASSWORD: 'a-long-password',
    FLOTILLA_EMBEDDED_REGISTRY: 'on',
    FLOTILLA_EMBEDDED_REGISTRY_PORT: String(await freePort()),
    FLOTILLA_BUILDER_DOCKER_HOST: `unix://${engine.socket}`,
    FLOTILLA_LOG_LEVEL: 'silent',
  });
  running = await startServer(config, (line) => printed.push(line));
}, 180_000);

afterAll(async () => {
  await running?.stop();
  await engine?.stop();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the demo on a machine with a container engine', () => {
  it('builds the first release of the fleet the engine builds for, with images the registry serves', async () => {
    const server = running;
    if (server === undefined) throw new Error('the server did not start');
    const version = z
      .object({ Arch: z.string() })
      .parse(JSON.parse((await engineGet(engine.socket, '/version')).body));
    const deviceType = demoFleetBuiltOn(version.Arch);
    const slug = (deviceType === undefined ? undefined : demoFleetSlugOf(deviceType)) ?? '';
    expect(slug).not.toBe('');
    expect(printed.join('\n')).toContain(`Built the first release of ${slug}`);
    expect(server.banner.realDevices).toEqual({ kind: 'real', fleet: slug });
    const registry = server.ctx.config.registry;
    if (registry === undefined) throw new Error('no registry configured');

    const { rows: releases } = await server.ctx.db.query<{ status: string; semver: string }>(
      `SELECT r."status", r."semver" FROM "application" a
         JOIN "release" r ON r."id" = a."should_be_running__release"
        WHERE a."slug" = $1`,
      [slug],
    );
    expect(releases).toEqual([{ status: 'success', semver: '1.0.0' }]);
    const { rows: images } = await server.ctx.db.query<ImageRow>(
      `SELECT s."service_name" AS "service", i."is_stored_at__image_location" AS "location",
              i."content_hash" AS "digest", i."status"
         FROM "application" a
         JOIN "release_image" ri ON ri."is_part_of__release" = a."should_be_running__release"
         JOIN "image" i ON i."id" = ri."image"
         JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE a."slug" = $1 ORDER BY s."service_name"`,
      [slug],
    );
    expect(images.map((image) => [image.service, image.status])).toEqual([
      ['main', 'success'],
      ['web', 'success'],
    ]);
    const signingKey = await loadRegistrySigningKey(dataDir);
    for (const image of images) {
      expect(image.location.startsWith(`${registry.host}/`)).toBe(true);
      const repository = image.location.slice(registry.host.length + 1);
      const pull = await signRegistryToken(signingKey, {
        issuer: 'flotilla',
        audience: registry.host,
        subject: 'test',
        access: [{ type: 'repository', name: repository, actions: ['pull'] }],
        now: new Date(),
      });
      const response = await fetch(
        `http://${registry.host}/v2/${repository}/manifests/${image.digest ?? ''}`,
        {
          method: 'HEAD',
          headers: {
            authorization: `Bearer ${pull.token}`,
            accept: [
              'application/vnd.docker.distribution.manifest.v2+json',
              'application/vnd.oci.image.manifest.v1+json',
            ].join(', '),
          },
        },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('docker-content-digest')).toBe(image.digest);
    }

    // The other demo fleets keep their simulated first release.
    const { rows: others } = await server.ctx.db.query<{ slug: string }>(
      `SELECT a."slug" FROM "application" a WHERE a."slug" LIKE 'demo/%'
          AND a."slug" <> $1 AND a."should_be_running__release" IS NOT NULL ORDER BY a."slug"`,
      [slug],
    );
    expect(others).toHaveLength(2);
  });

  it('stops its registry with the server', async () => {
    const server = running;
    if (server === undefined) throw new Error('the server did not start');
    const registryUrl = server.ctx.config.registry?.url ?? '';
    await server.stop();
    running = undefined;
    await expect(fetch(`${registryUrl}/v2/`)).rejects.toThrow();
  });
});
