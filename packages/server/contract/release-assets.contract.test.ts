import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BalenaSDK } from 'balena-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { releaseAssetMaxBytes } from '../src/features/release-assets/asset-files.js';
import { addFleetMember } from '../src/test-support/fixtures.js';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { createFleet, createOrganization, failureOf, registerUser } from './contract-helpers.js';
import { deploy } from './deploy-sequence.js';

const beginAnswer = z.object({
  asset: z.object({ uuid: z.string(), uploadParts: z.array(z.object({ url: z.string() })) }),
});

const textOf = async (stream: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

// Release assets through the unmodified balena-sdk (issue 12): release.asset.upload sends files
// up to 5 MiB as one multipart POST (PATCH to overwrite); getAllByRelease, get, download, remove.
describe('release assets: balena-sdk against Flotilla', () => {
  let server: TestServer;
  let dataDir: string;
  let sdk: BalenaSDK;
  let stranger: BalenaSDK;
  let releaseId: number;
  let commit: string;
  let orgId: number;
  let fleetId: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-assets-'));
    server = await startTestServer({ config: { dataDir } });
    sdk = (await registerUser(server.url, 'assets')).sdk;
    stranger = (await registerUser(server.url, 'assets-stranger')).sdk;
    const org = await createOrganization(sdk, 'Assets org');
    const fleet = await createFleet(sdk, org.id, 'assets');
    orgId = org.id;
    fleetId = fleet.id;
    const deployed = await deploy(sdk, fleet.id, { services: ['main'], semver: '1.0.0' });
    releaseId = deployed.release.id;
    commit = deployed.release.commit;
  });

  afterAll(async () => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads, lists, gets, downloads, overwrites and removes an asset', async () => {
    const file = new File(['hello assets'], 'notes.txt', { type: 'text/plain' });
    const created = await sdk.models.release.asset.upload({
      asset: file,
      asset_key: 'docs/notes.txt',
      release: releaseId,
    });
    expect(created).toMatchObject({ asset_key: 'docs/notes.txt', release: { __id: releaseId } });
    expect(created.asset).toMatchObject({
      filename: 'notes.txt',
      content_type: 'text/plain',
      size: 12,
      href: expect.stringMatching(/^http:\/\/.+\/release-asset\/v1\/[0-9a-f]{32}\/notes\.txt$/),
    });

    await sdk.models.release.asset.upload({
      asset: new File(['b'], 'b.bin'),
      asset_key: 'b.bin',
      release: releaseId,
    });
    const all = await sdk.models.release.asset.getAllByRelease(commit);
    expect(all.map((asset) => asset.asset_key)).toEqual(['docs/notes.txt', 'b.bin']);

    const byKey = await sdk.models.release.asset.get({
      release: releaseId,
      asset_key: 'docs/notes.txt',
    });
    expect(byKey.id).toBe(created.id);
    expect(await textOf(await sdk.models.release.asset.download(created.id))).toBe('hello assets');

    // Uploading to an existing key needs overwrite (the SDK checks first), which PATCHes.
    const exists = await failureOf(
      sdk.models.release.asset.upload({ asset: file, asset_key: 'b.bin', release: releaseId }),
    );
    expect(exists.message).toBe(
      `Release asset combination of ${releaseId} and b.bin already exists`,
    );
    await sdk.models.release.asset.upload(
      { asset: new File(['new content'], 'b.txt'), asset_key: 'b.bin', release: releaseId },
      { overwrite: true },
    );
    const b = await sdk.models.release.asset.get({ release: releaseId, asset_key: 'b.bin' });
    expect(await textOf(await sdk.models.release.asset.download(b.id))).toBe('new content');

    await sdk.models.release.asset.remove({ release: releaseId, asset_key: 'b.bin' });
    const left = await sdk.models.release.asset.getAllByRelease(releaseId);
    expect(left.map((asset) => asset.asset_key)).toEqual(['docs/notes.txt']);
    // A removed asset's href no longer serves its file.
    const gone = await fetch(String((b.asset as { href: string }).href));
    expect(gone.status).toBe(404);
  });

  it("shows another organization's user nothing and refuses their writes", async () => {
    const mine = await sdk.models.release.asset.upload({
      asset: new File(['secret'], 'secret.txt'),
      asset_key: 'secret.txt',
      release: releaseId,
    });
    const seen = await stranger.pine.get({
      resource: 'release_asset',
      options: { $filter: { release: releaseId } },
    });
    expect(seen).toEqual([]);
    const write = await failureOf(
      stranger.models.release.asset.upload({
        asset: new File(['x'], 'x.txt'),
        asset_key: 'x.txt',
        release: releaseId,
      }),
    );
    expect(write.statusCode).toBe(401);
    // As in pinejs, a DELETE reaches only rows the caller may delete: none here.
    await stranger.models.release.asset.remove(mine.id);
    expect(await fetch(String((mine.asset as { href: string }).href))).toHaveProperty(
      'status',
      200,
    );
    const still = await sdk.models.release.asset.getAllByRelease(releaseId);
    expect(still.map((asset) => asset.asset_key)).toContain('secret.txt');
  });

  it("lets the fleet's observer read and download but not write, another fleet's observer nothing", async () => {
    const asset = await sdk.models.release.asset.upload({
      asset: new File(['for observers'], 'o.txt'),
      asset_key: 'observed/o.txt',
      release: releaseId,
    });
    const observer = await registerUser(server.url, 'assets-observer');
    const otherObserver = await registerUser(server.url, 'assets-other-observer');
    const otherFleet = await createFleet(sdk, orgId, 'assets-other');
    await addFleetMember(
      server.db,
      (await observer.sdk.auth.getUserInfo()).id,
      fleetId,
      'observer',
    );
    await addFleetMember(
      server.db,
      (await otherObserver.sdk.auth.getUserInfo()).id,
      otherFleet.id,
      'observer',
    );
    await server.ctx.notifications.sync();

    const keys = (await observer.sdk.models.release.asset.getAllByRelease(releaseId)).map(
      (row) => row.asset_key,
    );
    expect(keys).toContain('observed/o.txt');
    expect(await textOf(await observer.sdk.models.release.asset.download(asset.id))).toBe(
      'for observers',
    );
    const write = await failureOf(
      observer.sdk.models.release.asset.upload({
        asset: new File(['x'], 'x.txt'),
        asset_key: 'observer.txt',
        release: releaseId,
      }),
    );
    expect(write.statusCode).toBe(401);

    // Who may create the fleet's releases (a safe developer) attaches assets too.
    const safeDeveloper = await registerUser(server.url, 'assets-safe-developer');
    const safeDeveloperId = (await safeDeveloper.sdk.auth.getUserInfo()).id;
    await addFleetMember(server.db, safeDeveloperId, fleetId, 'safe-developer');
    await server.ctx.notifications.sync();
    const attached = await safeDeveloper.sdk.models.release.asset.upload({
      asset: new File(['by a safe developer'], 'sd.txt'),
      asset_key: 'sd.txt',
      release: releaseId,
    });
    expect(attached.asset).toMatchObject({ size: 19 });

    const unseen = await otherObserver.sdk.pine.get({
      resource: 'release_asset',
      options: { $filter: { release: releaseId } },
    });
    expect(unseen).toEqual([]);
    const otherWrite = await failureOf(
      otherObserver.sdk.pine.post({
        resource: 'release_asset',
        body: { release: releaseId, asset_key: 'y.txt', asset: new File(['y'], 'y.txt') },
      }),
    );
    expect(otherWrite.statusCode).toBe(401);
  });

  it('uploads a file over 5 MiB in parts (beginUpload, part PUTs, commitUpload)', async () => {
    const bytes = new Uint8Array(releaseAssetMaxBytes + 1_000_123).map((_, index) => index % 251);
    const progress: number[] = [];
    const uploaded = await sdk.models.release.asset.upload(
      { asset: new File([bytes], 'big.img'), asset_key: 'images/big.img', release: releaseId },
      { onUploadProgress: ({ uploaded: done }) => void progress.push(done) },
    );
    expect(uploaded.asset).toMatchObject({ filename: 'big.img', size: bytes.length });
    expect(progress.at(-1)).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of await sdk.models.release.asset.download(uploaded.id)) {
      chunks.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);

    // Another user cannot begin an upload on it; a wrong ETag is refused.
    const begin = await failureOf(
      stranger.pine.post({
        resource: 'release_asset',
        id: uploaded.id,
        action: 'beginUpload',
        body: { asset: { filename: 'x', content_type: 'x', size: 10, chunk_size: 5_242_880 } },
      }),
    );
    expect(begin.statusCode).toBe(401);
    const started = beginAnswer.parse(
      await sdk.pine.post({
        resource: 'release_asset',
        id: uploaded.id,
        action: 'beginUpload',
        body: { asset: { filename: 'y', content_type: 'x', size: 10, chunk_size: 5_242_880 } },
      }),
    );
    const part = await fetch(started.asset.uploadParts[0]?.url ?? '', {
      method: 'PUT',
      body: new Uint8Array(10),
    });
    expect(part.status).toBe(200);
    const commit = await failureOf(
      sdk.pine.post({
        resource: 'release_asset',
        id: uploaded.id,
        action: 'commitUpload',
        body: {
          uuid: started.asset.uuid,
          providerCommitData: { Parts: [{ PartNumber: 1, ETag: 'wrong' }] },
        },
      }),
    );
    expect(commit.message).toContain('Part 1 does not match its ETag');
    const still = await sdk.models.release.asset.get(uploaded.id);
    expect(still.asset).toMatchObject({ filename: 'big.img' });
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const files = async (): Promise<string[]> =>
      readdir(path.join(dataDir, 'release-assets')).catch(() => []);
    const before = await files();
    const empty = await failureOf(
      sdk.pine.post({
        resource: 'release_asset',
        body: { release: releaseId, asset_key: ' ', asset: new File(['x'], 'x.txt') },
      }),
    );
    expect(empty.message).toContain("'asset_key' of 'release_asset' must not be empty");
    const tooLarge = await failureOf(
      sdk.pine.post({
        resource: 'release_asset',
        body: {
          release: releaseId,
          asset_key: 'big.bin',
          asset: new File([new Uint8Array(releaseAssetMaxBytes + 1)], 'big.bin'),
        },
      }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.message).toContain('limited to 5242880 bytes');

    const href = await failureOf(
      sdk.pine.post({
        resource: 'release_asset',
        body: {
          release: releaseId,
          asset_key: 'link',
          asset: { filename: 'x', content_type: 'text/plain', size: 1, href: 'http://elsewhere/' },
        },
      }),
    );
    expect(href.statusCode).toBe(400);
    expect(href.message).toContain('must be a file sent as multipart/form-data');

    const keys = (await sdk.models.release.asset.getAllByRelease(releaseId)).map(
      (asset) => asset.asset_key,
    );
    expect(keys).not.toContain('big.bin');
    expect(keys).not.toContain('link');
    expect(await files()).toEqual(before);
  });
});
