import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, createOrganization } from './contract-helpers.js';
import {
  busyboxProject,
  type CliBuildTools,
  imagesOfRelease,
  servedDigest,
  startCliBuildTools,
} from './cli-build-tools.js';

// The `balena deploy` flow of docs/RELEASES.md with the real tools and nothing in between: the real
// balena-cli 25 builds a Dockerfile project on a real dockerd (Debian's docker.io), creates the
// release on Flotilla, asks Flotilla's token service for a push token as it does (the scope list
// in `qs`'s `scope[0]=` form) and pushes to a real CNCF distribution registry that trusts
// Flotilla's tokens, configured as docs/RELEASES.md says. The image is built from scratch around
// Debian's static busybox, so nothing is pulled from outside.

describe('balena deploy --build: balena-cli, dockerd and the registry against Flotilla', () => {
  let tools: CliBuildTools;

  beforeAll(async () => {
    tools = await startCliBuildTools('deployer');
  });

  afterAll(async () => {
    await tools?.close();
  });

  it("builds a Dockerfile project, pushes its image and the release succeeds with the registry's digest", async () => {
    const { cli, engine, registry, user } = tools;
    const org = await createOrganization(user.sdk, 'Deploy');
    const fleet = await createFleet(user.sdk, org.id, 'deployed', 'generic-amd64');
    const project = await busyboxProject(join(tools.workDir, 'project'), [
      'CMD ["/bin/sh", "-c", "echo hello from flotilla; sleep 3600"]',
    ]);

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
    const images = await imagesOfRelease(tools, release?.id ?? 0);
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.status).toBe('success');
    expect(image?.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(output).toContain(`Release: ${release?.commit ?? 'no release'}`);

    // The registry serves that digest, to a pull token Flotilla grants the fleet's developer.
    expect(
      await servedDigest(
        tools,
        image?.is_stored_at__image_location ?? '',
        image?.content_hash ?? '',
      ),
    ).toBe(image?.content_hash);
  });
});
