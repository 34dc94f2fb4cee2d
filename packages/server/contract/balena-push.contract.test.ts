import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalenaCli } from '../src/test-support/balena-cli.js';
import type { TestServer } from '../src/test-support/test-server.js';
import { waitForValue } from '../src/test-support/wait-for.js';
import {
  busyboxProject,
  type CliBuildTools,
  imagesOfRelease,
  servedDigest,
  startCliBuildTools,
} from './cli-build-tools.js';
import {
  createFleet,
  createOrganization,
  type RegisteredUser,
  registerUser,
} from './contract-helpers.js';

// The `balena push` flow of docs/RELEASES.md with the real tools: the real balena-cli 25 tars a Dockerfile
// project and posts it to Flotilla's builder (BALENARC_BUILDER_URL, as docs/RELEASES.md says), which
// builds it on a real dockerd (Debian's docker.io) and pushes the image to a real CNCF
// distribution registry; the CLI prints the build log as the server streams it. The image is
// built from scratch around Debian's static busybox, so nothing is pulled from outside.

// A device type of this machine's CPU architecture, which the engine builds for.
const deviceType = process.arch === 'arm64' ? 'raspberrypi4-64' : 'generic-amd64';

describe('balena push: balena-cli, dockerd and the registry against Flotilla', () => {
  let tools: CliBuildTools;
  let server: TestServer;
  let user: RegisteredUser;
  let cli: BalenaCli;
  let builderEnv: NodeJS.ProcessEnv;

  const project = (name: string, steps: string[]): Promise<string> =>
    busyboxProject(join(tools.workDir, name), steps);

  const releasesOf = async (fleetId: number) =>
    await user.sdk.pine.get({
      resource: 'release',
      options: {
        $select: ['id', 'status', 'is_final'],
        $filter: { belongs_to__application: fleetId },
        $orderby: { id: 'desc' },
      },
    });

  beforeAll(async () => {
    tools = await startCliBuildTools('pusher', { builds: true });
    ({ server, user, cli } = tools);
    builderEnv = { BALENARC_BUILDER_URL: server.url };
  });

  afterAll(async () => {
    await tools?.close();
  });

  it("builds a Dockerfile project on the server, prints its build and the release succeeds with the registry's digest", async () => {
    const org = await createOrganization(user.sdk, 'Push');
    const fleet = await createFleet(user.sdk, org.id, 'pushed', deviceType);
    const source = await project('project', [
      'RUN echo built by flotilla > /hello',
      'CMD ["/bin/sh", "-c", "cat /hello; sleep 3600"]',
    ]);

    const output = await cli.run(
      ['push', fleet.slug, '--source', source, '--note', 'pushed', '--release-tag', 'env', 'prod'],
      builderEnv,
      240_000,
    );

    const [release] = await releasesOf(fleet.id);
    expect(output).toContain(`Building release ${release?.id ?? 0} of ${fleet.slug}`);
    // The engine's own output, as the server streamed it.
    expect(output).toMatch(/\[main\].*RUN echo built by flotilla/);
    expect(output).toContain(`[Success] Release ${release?.id ?? 0} built`);
    expect(release?.status).toBe('success');
    // The CLI notes and tags the release its buildLogId named.
    const noted = await user.sdk.pine.get({
      resource: 'release',
      id: release?.id ?? 0,
      options: { $select: 'note', $expand: { release_tag: { $select: ['tag_key', 'value'] } } },
    });
    expect(noted).toMatchObject({
      note: 'pushed',
      release_tag: [{ tag_key: 'env', value: 'prod' }],
    });
    const images = await imagesOfRelease(tools, release?.id ?? 0);
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.status).toBe('success');
    expect(image?.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    // The registry serves that digest, to a pull token Flotilla grants the fleet's developer.
    expect(
      await servedDigest(
        tools,
        image?.is_stored_at__image_location ?? '',
        image?.content_hash ?? '',
      ),
    ).toBe(image?.content_hash);
  });

  it("fails with the Dockerfile's error when a step fails, and the release ends failed", async () => {
    const org = await createOrganization(user.sdk, 'Broken');
    const fleet = await createFleet(user.sdk, org.id, 'broken', deviceType);
    const source = await project('broken', ['RUN echo about to fail && exit 3']);

    const failure = await cli
      .run(['push', fleet.slug, '--source', source], builderEnv, 240_000)
      .then(
        () => 'the push succeeded',
        (error: unknown) => String(error),
      );

    expect(failure).toContain(
      "'/bin/sh -c echo about to fail && exit 3' returned a non-zero code: 3",
    );
    expect(failure).toContain('Remote build failed');
    const [release] = await releasesOf(fleet.id);
    expect(release?.status).toBe('failed');
  });

  it('builds every step again with --nocache, where a plain push takes them from the cache', async () => {
    const org = await createOrganization(user.sdk, 'Uncached');
    const fleet = await createFleet(user.sdk, org.id, 'uncached', deviceType);
    const source = await project('uncached', ['RUN echo layer > /layer']);
    const push = async (...flags: string[]): Promise<string> =>
      await cli.run(['push', fleet.slug, '--source', source, ...flags], builderEnv, 240_000);

    await push();
    const uncached = await push('--nocache');
    const cached = await push();

    expect(uncached).toContain('[Success]');
    expect(uncached).not.toContain('Using cache');
    expect(cached).toContain('Using cache');
  });

  it('builds the Dockerfile --dockerfile names', async () => {
    const org = await createOrganization(user.sdk, 'Named');
    const fleet = await createFleet(user.sdk, org.id, 'named', deviceType);
    const source = await project('named', ['RUN echo from the root Dockerfile']);
    await mkdir(join(source, 'docker'));
    await writeFile(
      join(source, 'docker', 'Prod.Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "echo", "prod build"]',
        '',
      ].join('\n'),
    );

    const output = await cli.run(
      ['push', fleet.slug, '--source', source, '--dockerfile', 'docker/Prod.Dockerfile'],
      builderEnv,
      240_000,
    );

    expect(output).toContain('prod build');
    expect(output).not.toContain('from the root Dockerfile');
    const [release] = await releasesOf(fleet.id);
    expect(release?.status).toBe('success');
  });

  it('starts a detached draft build, answering its release at once, and the build goes on', async () => {
    const org = await createOrganization(user.sdk, 'Detached');
    const fleet = await createFleet(user.sdk, org.id, 'detached', deviceType);
    const source = await project('detached', ['CMD ["/bin/true"]']);

    // Without a terminal the CLI prints the builder's answer as it is.
    const output = await cli.run(
      ['push', fleet.slug, '--source', source, '--detached', '--draft'],
      builderEnv,
    );

    const [started] = await releasesOf(fleet.id);
    expect(output).toContain(`"started":true,"releaseId":${started?.id ?? 0}`);
    const ended = await waitForValue(
      'the detached build to end',
      async () => (await releasesOf(fleet.id))[0],
      (release) => release?.status !== 'running',
      120_000,
    );
    expect(ended).toMatchObject({ status: 'success', is_final: false });
  });

  it('cancels the build on Ctrl-C: the engine stops, the release ends cancelled', async () => {
    const org = await createOrganization(user.sdk, 'Interrupted');
    const fleet = await createFleet(user.sdk, org.id, 'interrupted', deviceType);
    // A step that waits for a file nobody writes: the build runs until it is stopped.
    const source = await project('interrupted', [
      'RUN echo "waiting for Ctrl-C" && while [ ! -e /released ]; do sleep 0.1; done',
    ]);

    const push = cli.start(['push', fleet.slug, '--source', source], builderEnv);
    await waitForValue(
      'the blocking step to run',
      async () => push.output(),
      (output) => output.includes('[main] waiting for Ctrl-C'),
      120_000,
    );
    push.interrupt();
    expect(await push.exited).not.toBe(0);

    // balena-cli sets the release cancelled and drops the request; either stops the build, which
    // then writes its log.
    expect(push.output()).toContain("Setting 'cancelled' release status");
    const ended = await waitForValue(
      'the stopped build to write its log',
      async () =>
        await user.sdk.pine.get({
          resource: 'release',
          options: {
            $select: ['status', 'build_log'],
            $filter: { belongs_to__application: fleet.id },
          },
        }),
      ([release]) => /the build was stopped$/.test(release?.build_log ?? ''),
      60_000,
    );
    expect(ended).toEqual([
      expect.objectContaining({
        status: 'cancelled',
        build_log: expect.stringMatching(/\nBuild cancelled: [^\n]*the build was stopped$/),
      }),
    ]);
  });

  it('refuses a fleet the user cannot see, and the builder answers as for an unknown fleet', async () => {
    const stranger = await registerUser(server.url, 'stranger');
    const org = await createOrganization(stranger.sdk, 'Hidden');
    const fleet = await createFleet(stranger.sdk, org.id, 'hidden', deviceType);
    const source = await project('hidden', ['CMD ["/bin/true"]']);

    const failure = await cli.run(['push', fleet.slug, '--source', source], builderEnv).then(
      () => 'the push succeeded',
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/not found/i);
    expect(failure).toContain(fleet.slug);

    // The builder itself, asked directly as balena-cli would, says the same without a build.
    const response = await fetch(
      `${server.url}/v3/build?slug=${encodeURIComponent(fleet.slug)}&headless=false`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-encoding': 'gzip' },
        body: new Uint8Array(0),
      },
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`Fleet ${fleet.slug} not found`);
    const hidden = await stranger.sdk.pine.get({
      resource: 'release',
      options: { $select: 'id', $filter: { belongs_to__application: fleet.id } },
    });
    expect(hidden).toHaveLength(0);
  });
});
