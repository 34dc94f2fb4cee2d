import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BalenaCli, balenaCli } from '../src/test-support/balena-cli.js';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '../src/test-support/distribution-registry.js';
import { type DockerEngine, startDockerEngine } from '../src/test-support/docker-engine.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  type RegisteredUser,
  registerUser,
} from './contract-helpers.js';

// The README's `balena deploy` flow with the real tools and nothing in between: the real
// balena-cli 25 builds a Dockerfile project on a real dockerd (Debian's docker.io), creates the
// release on Flotilla, asks Flotilla's token service for a push token as it does (the scope list
// in `qs`'s `scope[0]=` form) and pushes to a real CNCF distribution registry that trusts
// Flotilla's tokens, configured as the README says. The image is built from scratch around
// Debian's static busybox, so nothing is pulled from outside.

const busybox = '/bin/busybox';

type Image = { content_hash: string | null; is_stored_at__image_location: string; status: string };

describe('balena deploy --build: balena-cli, dockerd and the registry against Flotilla', () => {
  let workDir: string;
  let registry: DistributionRegistry;
  let engine: DockerEngine;
  let server: TestServer;
  let user: RegisteredUser;
  let cli: BalenaCli;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'flotilla-deploy-'));
    const dataDir = join(workDir, 'flotilla');
    registry = await startDistributionRegistry(workDir, dataDir);
    engine = await startDockerEngine();
    server = await startTestServer({
      config: { dataDir, registry: { url: `http://${registry.host}`, host: registry.host } },
    });
    user = await registerUser(server.url, 'deployer');
    cli = await balenaCli(server.url);
    await cli.run(['login', '--token', user.token]);
  });

  afterAll(async () => {
    await server?.close();
    await engine?.stop();
    await registry?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("builds a Dockerfile project, pushes its image and the release succeeds with the registry's digest", async () => {
    const org = await createOrganization(user.sdk, 'Deploy');
    const fleet = await createFleet(user.sdk, org.id, 'deployed', 'generic-amd64');
    const project = join(workDir, 'project');
    await mkdir(project);
    await copyFile(busybox, join(project, 'busybox'));
    await writeFile(
      join(project, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
        'CMD ["/bin/sh", "-c", "echo hello from flotilla; sleep 3600"]',
        '',
      ].join('\n'),
    );

    let output = '';
    try {
      output = await cli.run(
        ['deploy', fleet.slug, '--build', '--source', project, '--docker', engine.socket],
        {},
        240_000,
      );
    } catch (error) {
      throw new Error(`${String(error)}\n--- registry log ---\n${registry.log().slice(-4000)}`);
    }
    expect(output).toMatch(/Deploy succeeded!/);

    const [release] = await user.sdk.pine.get({
      resource: 'release',
      options: {
        $select: ['id', 'status', 'commit'],
        $filter: { belongs_to__application: fleet.id },
        $orderby: { id: 'desc' },
      },
    });
    expect(release?.status).toBe('success');
    const images = (await user.sdk.pine.get({
      resource: 'image',
      options: {
        $select: ['content_hash', 'is_stored_at__image_location', 'status'],
        $filter: {
          release_image: {
            $any: { $alias: 'ri', $expr: { ri: { is_part_of__release: release?.id ?? 0 } } },
          },
        },
      },
    })) as Image[];
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.status).toBe('success');
    expect(image?.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(output).toContain(`Release: ${release?.commit ?? 'no release'}`);

    // The registry serves that digest, to a pull token Flotilla grants the fleet's developer.
    const repository = (image?.is_stored_at__image_location ?? '').slice(registry.host.length + 1);
    const tokenResponse = await fetch(
      `${server.url}/auth/v1/token?service=${encodeURIComponent(registry.host)}&scope=${encodeURIComponent(`repository:${repository}:pull`)}`,
      { headers: { authorization: `Bearer ${user.token}` } },
    );
    const { token } = (await tokenResponse.json()) as { token: string };
    const manifest = await fetch(
      `http://${registry.host}/v2/${repository}/manifests/${image?.content_hash ?? ''}`,
      {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.docker.distribution.manifest.v2+json',
        },
      },
    );
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('docker-content-digest')).toBe(image?.content_hash);
  });
});
