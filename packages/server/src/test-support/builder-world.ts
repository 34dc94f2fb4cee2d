import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../infra/db/database.js';
import { issueSessionToken } from '../features/auth/issue-session-token.js';
import { registerBuilder } from '../features/builder/register-builder.js';
import { registerFleetHooks } from '../features/fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../features/releases/release-hooks.js';
import { type DockerEngine, startDockerEngine } from './docker-engine.js';
import { type DistributionRegistry, startDistributionRegistry } from './distribution-registry.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from './fixtures.js';
import { projectTarball } from './project-tarball.js';
import { type PushedImage, pushedImage } from './registry-image.js';
import { createTestApp, createTestContext } from './test-context.js';
import { createTestDatabase } from './test-database.js';

// The builder on a real engine and registry for a test file: a private dockerd (no bridge
// network) and a distribution registry trusting Flotilla's tokens, the builder's upload route
// and an organization administrator who uploads projects to its fleets.
export type BuilderWorld = {
  db: Database;
  engine: DockerEngine;
  registry: DistributionRegistry;
  fleet(name: string, deviceType: string): Promise<FleetFixture>;
  // Uploads the project (files named `busybox` packed executable) and answers the build's result.
  upload(fleet: FleetFixture, files: Record<string, string | Buffer>): Promise<BuildAnswer>;
  imagesOf(releaseId: number): Promise<BuiltImage[]>;
  pushed(image: BuiltImage): Promise<PushedImage>;
  stop(): Promise<void>;
};

// The HTTP status, and the release's status and log (a refusal's text as `result`).
export type BuildAnswer = { status: number; releaseId: number; result: string; log: string[] };

export type BuiltImage = {
  service: string;
  status: string;
  location: string;
  digest: string | null;
  error: string | null;
};

export const startBuilderWorld = async (): Promise<BuilderWorld> => {
  const workDir = await mkdtemp(join(tmpdir(), 'flotilla-builder-world-'));
  const dataDir = join(workDir, 'flotilla');
  const [engine, registry] = await Promise.all([
    startDockerEngine(),
    startDistributionRegistry(workDir, dataDir),
  ]);
  const db = await createTestDatabase();
  const ctx = createTestContext(db, {
    config: {
      dataDir,
      registry: { url: `http://${registry.host}`, host: registry.host },
      builderDockerHost: { socketPath: engine.socket },
      builderNetwork: false,
    },
  });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: registry.host });
  const app: FastifyInstance = await createTestApp(ctx, registerBuilder);
  const owner = await createUser(db, 'owner');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  const token = await issueSessionToken(ctx, db, owner.userId);
  return {
    db,
    engine,
    registry,
    fleet: (name, deviceType) => createFleet(db, organization, name, { deviceType }),
    async upload(fleet, files) {
      const response = await app.inject({
        method: 'POST',
        url: `/builder/v1/applications/${fleet.id}/releases`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
        payload: await projectTarball(files, {
          executables: Object.keys(files).filter((name) => name.endsWith('busybox')),
        }),
      });
      // A refusal is the error's text.
      if (response.statusCode >= 400) {
        return { status: response.statusCode, releaseId: 0, result: response.body, log: [] };
      }
      const body = response.json<{ releaseId: number; status: string; log: string[] }>();
      return {
        status: response.statusCode,
        releaseId: body.releaseId,
        result: body.status,
        log: body.log,
      };
    },
    async imagesOf(releaseId) {
      const { rows } = await db.query<BuiltImage>(
        `SELECT s."service_name" AS "service", i."status",
                i."is_stored_at__image_location" AS "location", i."content_hash" AS "digest",
                i."error_message" AS "error"
           FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
           JOIN "service" s ON s."id" = i."is_a_build_of__service"
          WHERE ri."is_part_of__release" = $1 ORDER BY s."service_name"`,
        [releaseId],
      );
      return rows;
    },
    pushed: (image) => pushedImage(registry.host, dataDir, image.location, image.digest ?? ''),
    async stop() {
      await app.close();
      await db.close();
      await Promise.all([engine.stop(), registry.stop()]);
      await rm(workDir, { recursive: true, force: true });
    },
  };
};
