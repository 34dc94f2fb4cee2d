import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Config } from '../../infra/config/config.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import { type DockerEngine, startDockerEngine } from '../../test-support/docker-engine.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../../test-support/distribution-registry.js';
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
import { cancelledLine, clientGoneLine } from './build-cancellation.js';
import { queuedLine } from './build-liveness.js';
import { registerBuilder } from './register-builder.js';

// The cost of builds on a real engine: one at a time (FLOTILLA_BUILDER_PARALLEL=1), the others
// queued in order; a build stopped (its release cancelled, its balena push client gone, over
// its time limit, its image too large) ends so on the engine too and leaves nothing of itself
// there; a second identical build takes every step from the cache and leaves no dangling image.
// A step that waits for a file nobody writes holds a build on the engine until the test acts.

let db: Database;
let engine: DockerEngine;
let registry: DistributionRegistry;
let workDir: string;
let busybox: Buffer;
let fleet: FleetFixture;
let ownerToken = '';
let operatorToken = '';
// One build at a time, for 10 minutes; and a server whose builds get 5 s and 1 MiB.
let roomy: Served;
let tight: Served;

type Served = { app: FastifyInstance; base: string };

// A device type of this machine's CPU architecture, which the engine builds for.
const deviceType = process.arch === 'arm64' ? 'raspberrypi4-64' : 'generic-amd64';

const project = (...steps: string[]): Record<string, string | Buffer> => ({
  Dockerfile: [
    'FROM scratch',
    'COPY busybox /bin/busybox',
    'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
    ...steps,
    '',
  ].join('\n'),
  busybox,
});

let marks = 0;
// A step only this build has (so its image is new), then one that waits until stopped.
const blockingProject = (): { files: Record<string, string | Buffer>; mark: string } => {
  marks += 1;
  const mark = `mark-${String(marks)}-${String(Date.now())}`;
  return {
    mark,
    files: project(
      `RUN echo "${mark}"`,
      'RUN echo "waiting for the test" && while [ ! -e /released ]; do sleep 0.1; done',
    ),
  };
};

// A `balena push` as the CLI makes it: the tarball posted, the log read as it streams (one JSON
// message a line of an array).
type Push = {
  lines: string[];
  releaseId: Promise<number>;
  ended: Promise<void>;
  disconnect(): void;
};

const push = (server: Served, files: Record<string, string | Buffer>): Push => {
  const lines: string[] = [];
  const client = new AbortController();
  let named = (_id: number): void => undefined;
  const releaseId = new Promise<number>((resolve) => {
    named = resolve;
  });
  const ended = (async () => {
    const body = await projectTarball(files, { executables: ['busybox'] });
    const response = await fetch(`${server.base}/v3/build?slug=${encodeURIComponent(fleet.slug)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}` },
      body: new Uint8Array(body),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    if (response.body === null) throw new Error('no stream');
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body) {
        pending += decoder.decode(chunk, { stream: true });
        const parts = pending.split('\n');
        // A message's line ends only when the next one starts: the last part is read too when
        // it is whole.
        pending = '';
        for (const [index, part] of parts.entries()) {
          const text = part.replace(/,$/, '');
          if (!text.startsWith('{')) continue;
          let message: { message?: string; value?: string };
          try {
            message = JSON.parse(text) as { message?: string; value?: string };
          } catch (thrown) {
            if (index < parts.length - 1) throw thrown;
            pending = part;
            continue;
          }
          if (message.value !== undefined) named(Number(message.value));
          if (message.message !== undefined) lines.push(message.message);
        }
      }
    } catch (thrown) {
      if (!client.signal.aborted) throw thrown;
    }
  })();
  return { lines, releaseId, ended, disconnect: () => client.abort() };
};

const releaseOf = async (id: number) =>
  (
    await db.query<{ status: string; log: string | null; images: string[] }>(
      `SELECT r."status", r."build_log" AS "log",
              array(SELECT i."status" FROM "release_image" ri JOIN "image" i ON i."id" = ri."image"
                     WHERE ri."is_part_of__release" = r."id") AS "images"
         FROM "release" r WHERE r."id" = $1`,
      [id],
    )
  ).rows[0];

const endedRelease = async (id: number) =>
  await waitForValue(
    `release ${String(id)} to end`,
    () => releaseOf(id),
    (row) => row !== undefined && row.status !== 'running',
    60_000,
  );

// The image the step after `step` made, as the build's log names it (" ---> <id>").
const imageAfter = (lines: readonly string[], step: string): string | undefined => {
  const at = lines.findIndex((line) => line.includes(step));
  for (const line of lines.slice(at + 1)) {
    const made = /---> ([0-9a-f]{12})$/.exec(line)?.[1];
    if (made !== undefined) return made;
  }
  return undefined;
};

const engineJson = async (path: string): Promise<unknown> => {
  const answer = await engine.get(path);
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body);
};

// Every image on the engine, intermediate ones too, by id.
const imageIds = async (): Promise<string[]> =>
  z
    .array(z.object({ Id: z.string() }))
    .parse(await engineJson('/images/json?all=1'))
    .map((image) => image.Id)
    .sort();

const imageStatus = async (id: string): Promise<number> =>
  (await engine.get(`/images/${id}/json`)).status;

// Nothing of a stopped build stays on the engine: no container, no image without a tag.
const expectNothingLeft = async (): Promise<void> => {
  expect(await engineJson('/containers/json?all=1')).toEqual([]);
  expect(
    await engineJson(`/images/json?filters=${encodeURIComponent('{"dangling":["true"]}')}`),
  ).toEqual([]);
};

// The processes on this machine whose command line holds `mark`: a build step's, which the
// engine runs in the machine's process table (the test's dockerd is a process of this machine).
const processesWith = async (mark: string): Promise<string[]> => {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(mark)) found.push(pid);
  }
  return found;
};

const waitForLine = async (pushed: Push, pattern: RegExp): Promise<void> => {
  await Promise.race([
    waitFor(
      `a log line matching ${String(pattern)}`,
      () => pushed.lines.some((line) => pattern.test(line)),
      60_000,
    ).catch((thrown: unknown) => {
      throw new Error(`${String(thrown)}; the log so far:\n${pushed.lines.join('\n')}`);
    }),
    pushed.ended.then(() => {
      if (!pushed.lines.some((line) => pattern.test(line))) {
        throw new Error(`the push ended without ${String(pattern)}:\n${pushed.lines.join('\n')}`);
      }
    }),
  ]);
};

// Sessions signed by one server are good on the other.
const jwtSecret = randomBytes(32);

const serve = async (config: Partial<Config>): Promise<Served> => {
  const ctx: AppContext = createTestContext(db, {
    jwtSecret,
    config: {
      dataDir: join(workDir, 'flotilla'),
      registry: { url: `http://${registry.host}`, host: registry.host },
      builderDockerHost: { socketPath: engine.socket },
      builderNetwork: false,
      ...config,
    },
  });
  registerFleetHooks(ctx.hooks);
  registerReleaseHooks(ctx.hooks, { registryHost: registry.host });
  const app = await createTestApp(ctx, registerBuilder, (scoped, context) => {
    registerODataRoutes(scoped, context);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    app,
    base: `http://127.0.0.1:${String(typeof address === 'object' ? address?.port : 0)}`,
  };
};

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'flotilla-build-control-'));
  busybox = await readFile('/bin/busybox');
  [engine, registry] = await Promise.all([
    startDockerEngine(),
    startDistributionRegistry(workDir, join(workDir, 'flotilla')),
  ]);
  db = await createTestDatabase();
  roomy = await serve({ builderParallel: 1, builderTimeoutMs: 10 * 60_000 });
  tight = await serve({ builderTimeoutMs: 5_000, builderMaxImageBytes: 1024 * 1024 });
  const owner = await createUser(db, 'owner');
  const operator = await createUser(db, 'operator');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  await addOrganizationMember(db, operator.userId, organization, 'member');
  fleet = await createFleet(db, organization, 'built', { deviceType });
  await addFleetMember(db, operator.userId, fleet.id, 'operator');
  const ctx = createTestContext(db, { jwtSecret });
  ownerToken = await issueSessionToken(ctx, db, owner.userId);
  operatorToken = await issueSessionToken(ctx, db, operator.userId);
}, 120_000);

afterAll(async () => {
  await roomy.app.close();
  await tight.app.close();
  await db.close();
  await Promise.all([engine.stop(), registry.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

// What balena-cli sends on Ctrl-C during `balena push`.
const cancelAs = async (token: string, releaseId: number) =>
  await roomy.app.inject({
    method: 'PATCH',
    url: `/v7/release(${String(releaseId)})?$filter=${encodeURIComponent("status ne 'success'")}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { status: 'cancelled', end_timestamp: Date.now() },
  });

describe('builds on this server', () => {
  it('queues a second build behind the first, and a cancelled first build stops on the engine, leaving nothing', async () => {
    const blocking = blockingProject();
    const first = push(roomy, blocking.files);
    await waitForLine(first, /\[main\] waiting for the test/);
    const firstId = await first.releaseId;

    const second = push(roomy, project('RUN echo "the second build"'));
    await waitForLine(second, /Queued/);
    const secondId = await second.releaseId;
    expect(second.lines).toContain(queuedLine(1, 1));
    expect(second.lines.some((line) => line.includes('Step 1/'))).toBe(false);
    // Queued builds show as running, their log saying so.
    expect(await releaseOf(secondId)).toMatchObject({
      status: 'running',
      log: expect.stringContaining(queuedLine(1, 1)),
    });

    // An operator may not change the fleet's releases: their cancel changes nothing.
    const refused = await cancelAs(operatorToken, firstId);
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect((await releaseOf(firstId))?.status).toBe('running');
    expect(second.lines.some((line) => line.includes('Step 1/'))).toBe(false);

    const cancelled = await cancelAs(ownerToken, firstId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await first.ended;
    const firstRelease = await endedRelease(firstId);
    expect(firstRelease).toMatchObject({ status: 'cancelled', images: ['cancelled'] });
    expect(firstRelease?.log?.split('\n').at(-1)).toBe(cancelledLine);
    expect(first.lines.at(-1)).toMatch(/^\[Error\] Release \d+ cancelled/);
    // The step only this build made is gone, and so is its container.
    const own = imageAfter(first.lines, blocking.mark);
    expect(own).toBeDefined();
    expect(await imageStatus(own ?? '')).toBe(404);

    await second.ended;
    expect(second.lines).toContainEqual(
      expect.stringMatching(/^Started after \d+ s in the queue$/),
    );
    expect((await endedRelease(secondId))?.status).toBe('success');
    await expectNothingLeft();
  }, 120_000);

  it('cancels the build when the client of balena push goes away (Ctrl-C)', async () => {
    const blocking = blockingProject();
    const pushed = push(roomy, blocking.files);
    await waitForLine(pushed, /\[main\] waiting for the test/);
    const releaseId = await pushed.releaseId;
    pushed.disconnect();
    await pushed.ended;
    const release = await endedRelease(releaseId);
    expect(release).toMatchObject({ status: 'cancelled', images: ['cancelled'] });
    expect(release?.log?.split('\n').at(-1)).toBe(clientGoneLine);
    expect(await imageStatus(imageAfter(pushed.lines, blocking.mark) ?? '')).toBe(404);
    await expectNothingLeft();
  }, 120_000);

  it("cancels a build with secrets (the engine's BuildKit) mid-step: the step ends on the engine, leaving no container or image", async () => {
    const mark = `secret-step-${String(Date.now())}`;
    const pushed = push(roomy, {
      ...project(
        `RUN test -s /run/secrets/token && echo "waiting for the test ${mark}" && while [ ! -e /released ]; do sleep 0.1; done`,
      ),
      '.balena/balena.yml':
        'build-secrets:\n  global:\n    - source: token.txt\n      dest: token\n',
      '.balena/secrets/token.txt': 'never-in-an-image',
    });
    await waitForLine(pushed, /\[main\] waiting for the test/);
    expect(pushed.lines).toContain('[main] Building with 1 build secret(s) at /run/secrets');
    expect(await processesWith(mark)).not.toEqual([]);
    const releaseId = await pushed.releaseId;
    const images = await imageIds();

    const cancelled = await cancelAs(ownerToken, releaseId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await pushed.ended;
    const release = await endedRelease(releaseId);
    expect(release).toMatchObject({ status: 'cancelled', images: ['cancelled'] });
    expect(release?.log?.split('\n').at(-1)).toBe(cancelledLine);
    await waitFor(
      'the stopped step to end on the engine',
      async () => (await processesWith(mark)).length === 0,
    );
    // BuildKit makes the image only at a build's end: the engine has no image it had not before.
    expect(await imageIds()).toEqual(images);
    await expectNothingLeft();
  }, 120_000);

  it('takes every step of an identical second build from the cache, leaving no dangling image', async () => {
    const files = project('RUN echo "cached steps"');
    const first = push(roomy, files);
    await first.ended;
    expect((await endedRelease(await first.releaseId))?.status).toBe('success');
    const second = push(roomy, files);
    await second.ended;
    expect((await endedRelease(await second.releaseId))?.status).toBe('success');
    const steps = (lines: readonly string[]) =>
      lines.filter((line) => /\[main\] Step \d+\/\d+ : (COPY|RUN)/.test(line)).length;
    const cached = (lines: readonly string[]) =>
      lines.filter((line) => line === '[main]  ---> Using cache').length;
    expect(steps(second.lines)).toBe(3);
    expect(cached(first.lines)).toBeLessThan(3);
    expect(cached(second.lines)).toBe(3);
    // Only the service's cache image is kept, under its cache tag.
    const tags = ((await engineJson('/images/json')) as { RepoTags: string[] | null }[]).flatMap(
      (image) => image.RepoTags ?? [],
    );
    expect(tags.filter((tag) => tag.startsWith(registry.host))).toEqual([]);
    expect(tags.filter((tag) => tag.startsWith('flotilla-build-cache:'))).toHaveLength(1);
    await expectNothingLeft();
  }, 120_000);

  it('fails a build over its time limit and stops it on the engine', async () => {
    const blocking = blockingProject();
    const pushed = push(tight, blocking.files);
    await pushed.ended;
    const release = await endedRelease(await pushed.releaseId);
    expect(release).toMatchObject({ status: 'failed', images: ['failed'] });
    expect(release?.log?.split('\n').at(-1)).toMatch(/^Build failed: timed out after 5 s/);
    await expectNothingLeft();
  }, 120_000);

  it('fails a build whose image is larger than the limit, and removes the image', async () => {
    const pushed = push(tight, project('RUN echo "too large"'));
    await pushed.ended;
    const release = await endedRelease(await pushed.releaseId);
    expect(release).toMatchObject({ status: 'failed', images: ['failed'] });
    expect(release?.log).toMatch(
      /\[main\] Error: The image is \d+\.\d MiB, more than this server's limit of 1\.0 MiB/,
    );
    const built = imageAfter(pushed.lines, 'RUN echo "too large"');
    expect(await imageStatus(built ?? '')).toBe(404);
    await expectNothingLeft();
  }, 120_000);
});
