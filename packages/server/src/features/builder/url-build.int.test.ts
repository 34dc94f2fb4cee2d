import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endedRelease,
  expectFailedBuild,
  expectRefused,
  expectStarted,
  held,
  jwtSecret,
  releaseCount,
  releaseOf,
  resolved,
  served,
  setUpWorld,
  tearDownWorld,
  tokens,
  w,
} from '../../test-support/build-from-url-world.js';
import { createUser } from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { waitFor } from '../../test-support/wait-for.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import { registerReleaseHooks } from '../releases/release-hooks.js';
import { startRelease } from './build-release.js';
import { checkProjectUrl } from './fetch-project.js';
import { fetchOptionsOf } from './register-build-from-url.js';
import { runUrlBuild, serverFailureLine } from './url-build.js';

// How a build from a URL ends after its answer (the release success or failed, with the reason in
// its build log), and the console's streaming build route from a URL.

beforeAll(setUpWorld);
afterAll(tearDownWorld);

describe('a build from a URL after the answer', () => {
  it('follows redirects to the tarball', async () => {
    const release = await endedRelease(await expectStarted(w.allowLoopback, `${w.origin}/hop`));
    expect(release.status).toBe('success');
    expect(served.slice(-2)).toEqual([
      `127.0.0.1:${w.port} /hop`,
      `127.0.0.1:${w.port} /project.tar.gz`,
    ]);
  });

  it('ends the release failed with the reason: download, not a tarball, no compose file, build step', async () => {
    await expectFailedBuild(
      w.allowLoopback,
      `${w.origin}/missing`,
      /^Downloading .*\nBuild failed: The project URL answered 404 Not Found$/,
    );
    await expectFailedBuild(
      w.allowLoopback,
      `${w.origin}/text`,
      /Build failed: .*not a tar archive/,
    );
    await expectFailedBuild(
      w.allowLoopback,
      `${w.origin}/no-compose.tar.gz`,
      /Build failed: The project has no docker-compose.yml/,
    );
    await expectFailedBuild(
      w.allowLoopback,
      `${w.origin}/needs-build.tar.gz`,
      /\[app\] Error: This server does not build images[^]*Build failed: see the services above/,
    );
  });

  it('reads a project in one top-level folder unless shouldFlatten is false', async () => {
    const flattened = await endedRelease(
      await expectStarted(w.allowLoopback, `${w.origin}/nested.tar.gz`),
    );
    expect(flattened.status).toBe('success');
    await expectFailedBuild(
      w.allowLoopback,
      `${w.origin}/nested.tar.gz`,
      /no docker-compose.yml .*at its root.*shouldFlatten is false/,
      false,
    );
    // A project at the tarball's root builds either way.
    const atRoot = await endedRelease(
      await expectStarted(w.allowLoopback, `${w.origin}/project.tar.gz`, false),
    );
    expect(atRoot.status).toBe('success');
  });

  it('checks every redirect hop like the first and limits redirects', async () => {
    await expectFailedBuild(w.allowLoopback, `${w.origin}/to-private`, /10\.0\.0\.1 is a private/);
    await expectFailedBuild(w.allowLoopback, `${w.origin}/to-ipv6-loopback`, /::1 is a loopback/);
    await expectFailedBuild(w.allowLoopback, `${w.origin}/to-metadata`, /link-local/);
    await expectFailedBuild(w.allowLoopback, `${w.origin}/loop`, /redirects more than 5 times/);
  });

  it('connects to the address it checked, resolving the name once per hop', async () => {
    resolved.length = 0;
    const releaseId = await expectStarted(
      w.fakeDns,
      `http://project.test:${w.port}/project.tar.gz`,
    );
    expect((await endedRelease(releaseId)).status).toBe('success');
    expect(resolved).toEqual(['project.test']);
    expect(served.at(-1)).toBe(`project.test:${w.port} /project.tar.gz`);
    // A name with any address outside the allowed networks is refused, whatever its others.
    await expectRefused(w.fakeDns, `http://mixed.test:${w.port}/x`, /10\.1\.2\.3 is a private/);
    await expectRefused(w.fakeDns, 'http://unknown.test/x', /could not be resolved/);
  });

  it('limits the size and the time of the download', async () => {
    await expectFailedBuild(
      w.fakeDns,
      `http://project.test:${w.port}/big`,
      /larger than 1 KiB|larger than/,
    );
    await expectFailedBuild(
      w.fakeDns,
      `http://project.test:${w.port}/slow`,
      /took longer than 0\.5 s/,
    );
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
      url: `/builder/v1/applications/${w.fleet.id}/releases`,
      headers: {
        authorization: `Bearer ${tokens.get('owner') ?? ''}`,
        accept: 'application/x-ndjson',
      },
      payload,
    });

  it('streams the download and build log, then the result', async () => {
    const response = await consoleBuild(w.allowLoopback, { url: `${w.origin}/project.tar.gz` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/x-ndjson/);
    const all = events(response.body);
    expect(all.slice(0, -1)).toEqual([
      { line: `Downloading ${w.origin}/project.tar.gz` },
      { line: expect.stringMatching(/^Downloaded \d+\.\d KiB$/) as unknown },
      { line: '[web] Using image nginx:1.27' },
      { line: 'Build succeeded' },
    ]);
    expect(all.at(-1)).toMatchObject({ result: { status: 'success' } });
  });

  it('ends the stream with the refusal and creates nothing', async () => {
    const before = await releaseCount();
    const response = await consoleBuild(w.allowLoopback, { url: `${w.origin}/missing` });
    expect(events(response.body)).toEqual([
      { line: `Downloading ${w.origin}/missing` },
      { error: 'The project URL answered 404 Not Found' },
    ]);
    expect(await releaseCount()).toBe(before);
    const guardedAnswer = await consoleBuild(w.guarded, { url: `${w.origin}/project.tar.gz` });
    expect(events(guardedAnswer.body)).toEqual([
      { error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) as unknown },
    ]);
    expect(await releaseCount()).toBe(before);
  });

  it('sends each line as it is written, before the build has ended', async () => {
    const before = held.length;
    const address = await w.allowLoopback.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/builder/v1/applications/${w.fleet.id}/releases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.get('owner') ?? ''}`,
        accept: 'application/x-ndjson',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: `${w.origin}/held` }),
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
    expect(events(text)).toEqual([{ line: `Downloading ${w.origin}/held` }]);
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

const userActor = (user: { userId: number; actorId: number }) =>
  ({
    kind: 'user',
    userId: user.userId,
    actorId: user.actorId,
    platformPermissions: [],
    via: 'session',
    twoFactorPending: false,
    emailVerificationPending: false,
  }) as const;

describe('an unexpected failure after the answer', () => {
  const worldContext = () => {
    const ctx = createTestContext(w.db, {
      jwtSecret,
      config: { builderAllowedNetworks: ['127.0.0.1/32'] },
    });
    registerFleetHooks(ctx.hooks);
    registerReleaseHooks(ctx.hooks, { registryHost: 'registry.test' });
    return ctx;
  };

  it('logs an unexpected failure and ends the release failed, never running', async () => {
    const ctx = worldContext();
    ctx.hooks.add('image', {
      beforeCreate: () => Promise.reject(new Error('the disk is full')),
    });
    const actor = userActor(w.owner);
    const releaseId = await startRelease(ctx, actor, w.fleet.id);
    const fetchOptions = fetchOptionsOf(ctx);
    const logged: string[] = [];
    await runUrlBuild(ctx, {
      actor,
      fleetId: w.fleet.id,
      releaseId,
      source: await checkProjectUrl(`${w.origin}/project.tar.gz`, fetchOptions),
      flatten: true,
      fetchOptions,
      log: { error: (_details, message) => logged.push(message) },
    });
    const release = await releaseOf(releaseId);
    expect(release?.status).toBe('failed');
    expect(release?.build_log?.split('\n').at(-1)).toBe(serverFailureLine);
    expect(logged).toEqual(['build from URL failed']);
  });

  it('ends the release failed even when its user may no longer write it', async () => {
    const ctx = worldContext();
    const releaseId = await startRelease(ctx, userActor(w.owner), w.fleet.id);
    // The build goes on as a user who lost their rights meanwhile (here: one who never had any).
    const outsider = await createUser(w.db, 'outsider');
    const fetchOptions = fetchOptionsOf(ctx);
    const logged: string[] = [];
    await runUrlBuild(ctx, {
      actor: userActor(outsider),
      fleetId: w.fleet.id,
      releaseId,
      source: await checkProjectUrl(`${w.origin}/missing`, fetchOptions),
      flatten: true,
      fetchOptions,
      log: { error: (_details, message) => logged.push(message) },
    });
    const release = await releaseOf(releaseId);
    expect(release?.status).toBe('failed');
    expect(release?.build_log).toMatch(/Build failed: The project URL answered 404 Not Found$/);
    expect(logged).toEqual(['ending a failed build as its user']);
  });
});
