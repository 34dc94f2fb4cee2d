import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogueFile } from '../src/features/host-os/catalogue-entry.js';
import { importCatalogue, listReleases } from '../src/features/host-os/catalogue-store.js';
import { storeImageStream } from '../src/features/host-os/os-image-files.js';
import { saveImage } from '../src/features/host-os/os-image-store.js';
import { type BalenaCli, balenaCli } from '../src/test-support/balena-cli.js';
import { makeFatImage, readBootFile } from '../src/test-support/fat-image.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createFleet,
  createOrganization,
  deviceTypeSlug,
  failureOf,
  registerUser,
} from './contract-helpers.js';

// balena-cli's `os download` and `os configure` against Flotilla: the operator's provisioning
// image of a catalogue release comes back unchanged, and `os configure` writes the fleet's
// config.json into it. The image is a small disk image as balenaOS ships them, with the
// device-type.json and os-release balenaOS keeps in its boot partition (balena-cli reads both).

describe('OS image download through balena-sdk and balena-cli', () => {
  let server: TestServer;
  let sdk: BalenaSDK;
  let cli: BalenaCli;
  let work: string;
  let image: Buffer;
  let fleet: { slug: string; id: number };

  beforeAll(async () => {
    server = await startTestServer();
    const file = catalogueFile.parse({
      releases: ['prod', 'dev'].map((variant) => ({
        kind: 'os',
        deviceType: deviceTypeSlug,
        version: '6.0.13',
        variant,
      })),
    });
    await server.db.transaction((tx) => importCatalogue(tx, file));
    const prod = (await listReleases(server.db)).find((release) => release.variant === 'prod');
    if (prod === undefined) throw new Error('no prod release in the catalogue');
    const response = await fetch(`${server.url}/device-types/v1/${deviceTypeSlug}`);
    const manifest = z.record(z.string(), z.unknown()).parse(await response.json());
    image = await makeFatImage({
      'device-type.json': JSON.stringify({
        ...manifest,
        configuration: { config: { partition: { primary: 1 }, path: '/config.json' } },
      }),
      'os-release': 'NAME="balenaOS"\nVERSION="6.0.13"\nVERSION_ID="6.0.13"\n',
    });
    const stored = await storeImageStream(server.ctx.config.dataDir, Readable.from([image]));
    await saveImage(server.db, prod.id, stored, `${deviceTypeSlug}-6.0.13.img`, null);

    const user = await registerUser(server.url, 'osdownload');
    sdk = user.sdk;
    const organization = await createOrganization(sdk);
    fleet = await createFleet(sdk, organization.id, 'images');
    cli = await balenaCli(server.url);
    await cli.run(['login', '--token', user.token]);
    work = await mkdtemp(path.join(tmpdir(), 'flotilla-os-download-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('balena os download saves the image of the version asked for, unchanged', async () => {
    const output = path.join(work, 'os.img');
    await cli.run(['os', 'download', deviceTypeSlug, '-o', output, '--version', '6.0.13']);
    expect((await readFile(output)).equals(image)).toBe(true);
  });

  it('balena os configure writes the fleet config.json into the downloaded image', async () => {
    const output = path.join(work, 'configured.img');
    await cli.run(['os', 'download', deviceTypeSlug, '-o', output, '--version', '6.0.13']);
    await cli.run([
      'os',
      'configure',
      output,
      '--fleet',
      fleet.slug,
      '--config-network',
      'ethernet',
    ]);
    const config = JSON.parse(await readBootFile(await readFile(output), 'config.json'));
    expect(config).toMatchObject({ applicationId: fleet.id, deviceType: deviceTypeSlug });
    expect(typeof config.provisioningApiKey).toBe('string');
  });

  it('a version without an image is the SDK OSImageNotFound, and nothing is served unsigned', async () => {
    const missing = await failureOf(
      sdk.models.os.download({ deviceType: deviceTypeSlug, version: '6.0.13.dev' }),
    );
    // balena-sdk turns the 404 into its typed OSImageNotFound error.
    expect(missing.message).toBe(
      `No image found for device type ${deviceTypeSlug} and version 6.0.13.dev`,
    );
    const anonymous = await fetch(
      `${server.url}/download?deviceType=${deviceTypeSlug}&version=6.0.13`,
    );
    expect(anonymous.status).toBe(401);
    const zipped = await fetch(
      `${server.url}/download?deviceType=${deviceTypeSlug}&version=6.0.13&fileType=.zip`,
      { headers: { authorization: `Bearer ${await sdk.auth.getToken()}` } },
    );
    expect(zipped.status).toBe(400);
    expect(await zipped.text()).toContain('unpacked (.img)');
  });
});
