import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { projectTarball } from '../../test-support/project-tarball.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import type { BuildBackend } from './build-backend.js';
import { buildRelease } from './build-release.js';
import type { ImageBuilder } from './image-builder.js';
import { readProjectArchive } from './project-archive.js';
import { outputCutLine } from './service-builds.js';
import { unrecordedLine } from './staged-build.js';

// The order of a build with an engine: the release and its images are committed (running, their
// rows unlocked) before anything is built, and the results are recorded after. An engine that
// builds only when the test lets it shows the state in between.

let db: Database;
let ctx: AppContext;
let actor: Actor;
let fleet: FleetFixture;

const digest = `sha256:${'b'.repeat(64)}`;

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = createTestContext(db, {
    config: { registry: { url: 'http://registry.test', host: 'registry.test' } },
  });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
  const owner = await createUser(db, 'owner');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  fleet = await createFleet(db, organization, 'staged');
  actor = {
    kind: 'user',
    userId: owner.userId,
    actorId: owner.actorId,
    platformPermissions: [],
    via: 'session',
    twoFactorPending: false,
    emailVerificationPending: false,
  };
});

afterAll(async () => {
  await db.close();
});

describe('a build on the container engine', () => {
  it('runs after the release is committed, holding no row lock, and is recorded after', async () => {
    let letBuild = (): void => undefined;
    const building = new Promise<void>((resolve) => {
      letBuild = resolve;
    });
    const tags: string[] = [];
    const tokens: string[] = [];
    const backend: BuildBackend = {
      async build(_context, request, onLog) {
        tags.push(request.tag);
        expect(request).toMatchObject({ dockerfile: 'Dockerfile', network: false });
        onLog('Step 1/1 : FROM scratch');
        await building;
        return { ok: true, imageId: 'sha256:built' };
      },
      async push(_tag, registryToken) {
        tokens.push(registryToken);
        return { ok: true, digest, size: 1234 };
      },
      // The fleet's devices are raspberrypi4-64 (aarch64).
      architecture: async () => 'arm64',
      runsPlatform: () => Promise.reject(new Error('the engine builds natively')),
      async remove() {},
    };
    const builder: ImageBuilder = {
      backend,
      network: false,
      emulation: true,
      pushToken: async (location) => `token-for-${location}`,
    };
    const files = await readProjectArchive(
      await projectTarball({
        'docker-compose.yml': 'services:\n  app:\n    build: .\n  db:\n    image: postgres:17\n',
        Dockerfile: 'FROM scratch\n',
      }),
    );
    const log: string[] = [];
    const result = buildRelease(
      { ...ctx, imageBuilder: { builder } },
      actor,
      fleet.id,
      files,
      (line) => log.push(line),
    );
    await waitFor('the engine to start building', () =>
      log.includes('[app] Step 1/1 : FROM scratch'),
    );

    // Committed and unlocked: another connection reads and locks the rows at once.
    const during = await db.transaction(async (tx) => {
      const release = await tx.query<{ id: number; status: string }>(
        `SELECT "id", "status" FROM "release" WHERE "belongs_to__application" = $1 FOR UPDATE NOWAIT`,
        [fleet.id],
      );
      const images = await tx.query<{ status: string; location: string }>(
        `SELECT i."status", i."is_stored_at__image_location" AS "location"
           FROM "image" i JOIN "release_image" ri ON ri."image" = i."id"
          WHERE ri."is_part_of__release" = $1 ORDER BY i."id" FOR UPDATE NOWAIT`,
        [release.rows[0]?.id ?? 0],
      );
      return { release: release.rows, images: images.rows };
    });
    expect(during.release).toEqual([{ id: expect.any(Number), status: 'running' }]);
    expect(during.images).toEqual([
      { status: 'running', location: tags[0] },
      { status: 'success', location: 'postgres:17' },
    ]);
    expect(tags[0]).toMatch(/^registry\.test\/v2\/[0-9a-f]{32}$/);

    letBuild();
    const built = await result;
    expect(built.status).toBe('success');
    expect(tokens).toEqual([`token-for-${tags[0] ?? ''}`]);
    const { rows } = await db.query(
      `SELECT r."status", i."status" AS "image", i."content_hash" AS "digest", i."image_size"::int AS "size",
              i."end_timestamp" IS NOT NULL AS "ended", i."dockerfile", i."project_type" AS "type",
              EXISTS (SELECT 1 FROM "server_build" b WHERE b."release" = r."id") AS "tracked"
         FROM "release" r JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         JOIN "image" i ON i."id" = ri."image"
        WHERE r."id" = $1 AND i."is_stored_at__image_location" = $2`,
      [built.releaseId, tags[0] ?? null],
    );
    expect(rows).toEqual([
      {
        status: 'success',
        image: 'success',
        digest,
        size: 1234,
        ended: true,
        dockerfile: 'FROM scratch\n',
        type: 'Dockerfile',
        tracked: false,
      },
    ]);
    expect(built.log).toEqual([
      '[db] Using image postgres:17',
      '[app] Step 1/1 : FROM scratch',
      '[app] Pushing the image to the registry',
      `[app] Built and pushed ${digest} (1234 bytes)`,
      'Build succeeded',
    ]);
  });

  it('fails the release with the reason when the engine cannot be reached', async () => {
    const unreachable = createTestContext(db, {
      config: {
        registry: { url: 'http://registry.test', host: 'registry.test' },
        builderDockerHost: { socketPath: '/nonexistent/flotilla/docker.sock' },
      },
    });
    registerFleetHooks(unreachable.hooks);
    registerReleaseHooks(unreachable.hooks, { registryHost: 'registry.test' });
    const files = await readProjectArchive(await projectTarball({ Dockerfile: 'FROM scratch\n' }));
    const result = await buildRelease(unreachable, actor, fleet.id, files);
    expect(result.status).toBe('failed');
    expect(result.log).toEqual([
      expect.stringMatching(/^\[main\] Error: The container engine failed: .*ENOENT/),
      'Build failed: see the services above',
    ]);
    const { rows } = await db.query(
      `SELECT r."status", i."status" AS "image", i."error_message" LIKE 'The container engine failed%' AS "said"
         FROM "release" r JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         JOIN "image" i ON i."id" = ri."image" WHERE r."id" = $1`,
      [result.releaseId],
    );
    expect(rows).toEqual([{ status: 'failed', image: 'failed', said: true }]);
  });

  it("keeps the engine's output to its limit in the log, the builder's own lines after it", async () => {
    const line = 'x'.repeat(builderLimits.engineOutputLineChars + 100);
    const backend: BuildBackend = {
      async build(_context, _request, onLog) {
        for (
          let written = 0;
          written < builderLimits.engineOutputChars * 2;
          written += line.length
        ) {
          onLog(line);
        }
        return { ok: false, error: 'The command returned a non-zero code: 1' };
      },
      push: () => Promise.reject(new Error('nothing to push')),
      // The fleet's devices are raspberrypi4-64 (aarch64).
      architecture: async () => 'arm64',
      runsPlatform: () => Promise.reject(new Error('the engine builds natively')),
      async remove() {},
    };
    const files = await readProjectArchive(await projectTarball({ Dockerfile: 'FROM scratch\n' }));
    const result = await buildRelease(
      {
        ...ctx,
        imageBuilder: {
          builder: { backend, network: true, emulation: true, pushToken: async () => 'token' },
        },
      },
      actor,
      fleet.id,
      files,
    );
    expect(result.status).toBe('failed');
    const kept = Math.floor(
      builderLimits.engineOutputChars / (builderLimits.engineOutputLineChars + 1),
    );
    expect(result.log).toHaveLength(kept + 3);
    expect(result.log[0]).toBe(`[main] ${line.slice(0, builderLimits.engineOutputLineChars)}`);
    expect(result.log.slice(-3)).toEqual([
      `[main] ${outputCutLine}`,
      '[main] Error: The command returned a non-zero code: 1',
      'Build failed: see the services above',
    ]);
    const { rows } = await db.query('SELECT "status" FROM "release" WHERE "id" = $1', [
      result.releaseId,
    ]);
    expect(rows).toEqual([{ status: 'failed' }]);
  });

  it('ends the release failed when its result cannot be recorded as the caller', async () => {
    const refusing = createTestContext(db, {
      config: { registry: { url: 'http://registry.test', host: 'registry.test' } },
    });
    registerFleetHooks(refusing.hooks);
    registerReleaseHooks(refusing.hooks, { registryHost: 'registry.test' });
    refusing.hooks.add('image', {
      beforeUpdate: () => Promise.reject(new Error('the rights changed meanwhile')),
    });
    const backend: BuildBackend = {
      build: async () => ({ ok: true, imageId: 'sha256:built' }),
      push: async () => ({ ok: true, digest, size: 1 }),
      // The fleet's devices are raspberrypi4-64 (aarch64).
      architecture: async () => 'arm64',
      runsPlatform: () => Promise.reject(new Error('the engine builds natively')),
      async remove() {},
    };
    const files = await readProjectArchive(await projectTarball({ Dockerfile: 'FROM scratch\n' }));
    await expect(
      buildRelease(
        {
          ...refusing,
          imageBuilder: {
            builder: { backend, network: true, emulation: true, pushToken: async () => 'token' },
          },
        },
        actor,
        fleet.id,
        files,
      ),
    ).rejects.toThrow('the rights changed meanwhile');
    const { rows } = await db.query<{ status: string; log: string; image: string }>(
      `SELECT r."status", r."build_log" AS "log", i."status" AS "image"
         FROM "release" r JOIN "release_image" ri ON ri."is_part_of__release" = r."id"
         JOIN "image" i ON i."id" = ri."image"
        WHERE r."belongs_to__application" = $1 ORDER BY r."id" DESC LIMIT 1`,
      [fleet.id],
    );
    expect(rows).toEqual([
      {
        status: 'failed',
        log: expect.stringMatching(new RegExp(`${unrecordedLine}$`)),
        image: 'failed',
      },
    ]);
  });

  describe("when the engine builds for another CPU architecture than the fleet's", () => {
    // An amd64 engine for the fleet's aarch64 devices; `runs` says whether its host runs arm64
    // programs (emulation).
    const buildOnAmd64 = async (emulation: boolean, runs: boolean) => {
      const platforms: (string | undefined)[] = [];
      const asked: string[] = [];
      const backend: BuildBackend = {
        async build(_context, request) {
          platforms.push(request.platform);
          return { ok: true, imageId: 'sha256:built' };
        },
        push: async () => ({ ok: true, digest, size: 1 }),
        architecture: async () => 'amd64',
        async runsPlatform(platform) {
          asked.push(platform);
          return runs;
        },
        async remove() {},
      };
      const files = await readProjectArchive(
        await projectTarball({
          'docker-compose.yml': 'services:\n  app:\n    build: .\n  db:\n    build: .\n',
          Dockerfile: 'FROM scratch\n',
        }),
      );
      const result = await buildRelease(
        {
          ...ctx,
          imageBuilder: {
            builder: { backend, network: true, emulation, pushToken: async () => 'token' },
          },
        },
        actor,
        fleet.id,
        files,
      );
      return { result, platforms, asked };
    };

    it('builds every image for the platform through emulation when the host runs its programs', async () => {
      const { result, platforms, asked } = await buildOnAmd64(true, true);
      expect(result.status, result.log.join('\n')).toBe('success');
      expect(asked).toEqual(['linux/arm64']);
      expect(platforms).toEqual(['linux/arm64', 'linux/arm64']);
      expect(result.log).toContain('[app] Building for arm64 through emulation');
      expect(result.log).toContain('[db] Building for arm64 through emulation');
    });

    it("fails every image with the reason when its host cannot run the platform's programs", async () => {
      const { result, platforms } = await buildOnAmd64(true, false);
      expect(platforms).toEqual([]);
      expect(result.status).toBe('failed');
      const reason =
        "The fleet's devices run aarch64 images and this server's container engine builds amd64 images, and its host cannot run linux/arm64 programs (QEMU user emulation registered with binfmt_misc and its F flag, such as Debian's qemu-user-static, lets it build for them): build it with 'balena deploy' on a aarch64 machine";
      expect(result.log).toEqual([
        `[app] Error: ${reason}`,
        `[db] Error: ${reason}`,
        'Build failed: see the services above',
      ]);
    });

    it('fails every image without asking the engine when emulation is turned off', async () => {
      const { result, platforms, asked } = await buildOnAmd64(false, true);
      expect([platforms, asked]).toEqual([[], []]);
      expect(result.status).toBe('failed');
      expect(result.log[0]).toBe(
        "[app] Error: The fleet's devices run aarch64 images and this server's container engine builds amd64 images; building for another CPU architecture through emulation is turned off (FLOTILLA_BUILDER_EMULATION=off): build it with 'balena deploy' on a aarch64 machine",
      );
    });
  });
});
