import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BalenaSDK, getSdk } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectTarball } from '../src/test-support/project-tarball.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { waitForValue } from '../src/test-support/wait-for.js';
import { createFleet, createOrganization, failureOf, registerUser } from './contract-helpers.js';

// balena-sdk's release.createFromUrl (POST <builderUrl>/v3/buildFromUrl) against Flotilla, whose
// builder is on the API's own address. The project is served on 127.0.0.1, which this server
// allows (FLOTILLA_BUILDER_ALLOWED_NETWORKS); 10.x stays refused.
describe('release.createFromUrl: balena-sdk against Flotilla', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let projectServer: Server;
  let tarballUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ config: { builderAllowedNetworks: ['127.0.0.1/32'] } });
    const { token } = await registerUser(server.url, 'from-url');
    sdk = getSdk({
      apiUrl: server.url,
      builderUrl: server.url,
      dataDirectory: false,
      isBrowser: false,
    });
    await sdk.auth.loginWithToken(token);
    const project = await projectTarball({
      'docker-compose.yml': 'services:\n  main:\n    image: alpine:3.20\n',
    });
    projectServer = createServer((_request, response) => response.end(project));
    await new Promise<void>((resolve) => projectServer.listen(0, '127.0.0.1', resolve));
    tarballUrl = `http://127.0.0.1:${(projectServer.address() as AddressInfo).port}/p.tar.gz`;
  });

  afterAll(async () => {
    projectServer?.close();
    await server?.close();
  });

  it('creates a release from a tarball URL and answers its id', async () => {
    const org = await createOrganization(sdk, 'From URL');
    const fleet = await createFleet(sdk, org.id, 'Url-Fleet');
    const releaseId = await sdk.models.release.createFromUrl(fleet.slug, { url: tarballUrl });
    // The builder answers once the release exists; the build ends after the answer.
    const release = await waitForValue(
      `release ${releaseId} to end its build`,
      () => sdk.models.release.get(releaseId, { $select: ['status', 'belongs_to__application'] }),
      (found) => found.status !== 'running',
    );
    expect(release).toMatchObject({
      status: 'success',
      belongs_to__application: { __id: fleet.id },
    });
  });

  it('fails with the refusal in our words for a private address', async () => {
    const org = await createOrganization(sdk, 'From URL refused');
    const fleet = await createFleet(sdk, org.id, 'url-refused');
    const error = await failureOf(
      sdk.models.release.createFromUrl(fleet.id, { url: 'http://10.0.0.1/p.tar.gz' }),
    );
    expect(error.message).toMatch(/10\.0\.0\.1 is a private address/);
    expect(
      await sdk.pine.get({
        resource: 'release',
        options: { $select: 'id', $filter: { belongs_to__application: fleet.id } },
      }),
    ).toEqual([]);
  });
});
