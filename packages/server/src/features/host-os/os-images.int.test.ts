import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferedOsImage, OsImage, OsImageDownload } from '@flotilla/shared/host-os/os-image';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  fatImageBytes,
  makeFatImage,
  readBootFile,
  rootPartitionOffset,
} from '../../test-support/fat-image.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { osImageDirectory } from './os-image-files.js';

// Provisioning images: a platform administrator uploads or links an OS image per host OS release,
// and a user who may add devices to the fleet downloads it with config.json written into its FAT
// boot partition, read back here with mtools.

let db: Database;
let app: FastifyInstance;
let linking: FastifyInstance;
let dataDir: string;
let clock = new Date();
let original: Buffer;
let fileServer: Server | undefined;
let fileUrl: string;
const tokens: Record<string, string> = {};
let fleet: fx.FleetFixture;
let releaseId: number;
let supervisorId: number;

const signUp = async (username: string, role?: string) => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
    [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
  );
  const id = rows[0]?.id ?? 0;
  if (role) {
    await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [id, role]);
  }
  const login = await app.inject({
    method: 'POST',
    url: '/login_',
    payload: { username, password: `${username}-password` },
  });
  tokens[username] = login.body;
  return id;
};

const as = (name: string | undefined) =>
  name === undefined ? {} : { authorization: `Bearer ${tokens[name]}` };

const addRelease = async (payload: Record<string, unknown>): Promise<number> => {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/host-os/releases',
    headers: as('root'),
    payload,
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
};

const upload = (id: number, body: Buffer, who = 'root') =>
  app.inject({
    method: 'PUT',
    url: `/admin/v1/host-os/releases/${id}/image?filename=raspberrypi4-64-6.0.13.img`,
    headers: { ...as(who), 'content-type': 'application/octet-stream' },
    payload: body,
  });

const askDownload = (who: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/download-os-image', headers: as(who), payload: body });

const storedFiles = async () =>
  (await readdir(osImageDirectory(dataDir)).catch(() => [])).filter((f) => !f.endsWith('.partial'));

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-os-images-'));
  const jwtSecret = randomBytes(32);
  app = buildServer(createTestContext(db, { config: { dataDir }, now: () => clock, jwtSecret }));
  // The same installation, told to allow the loopback network (FLOTILLA_BUILDER_ALLOWED_NETWORKS).
  linking = buildServer(
    createTestContext(db, {
      config: { dataDir, builderAllowedNetworks: ['127.0.0.1/32'] },
      jwtSecret,
    }),
  );
  await Promise.all([app.ready(), linking.ready()]);
  original = await makeFatImage({ 'README.txt': 'boot partition\n' });
  const files = createServer((request, response) => {
    if (request.url === '/moved') {
      response.writeHead(302, { location: '/images/pi.img' }).end();
      return;
    }
    response.writeHead(200, { 'content-length': original.length }).end(original);
  });
  fileServer = files;
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const address = files.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  fileUrl = `http://127.0.0.1:${address.port}`;

  await signUp('root', 'balena_admin');
  const ownerId = await signUp('owner');
  const observerId = await signUp('observer');
  const organization = await fx.createOrganization(db, 'Image Org');
  await fx.addOrganizationMember(db, ownerId, organization, 'administrator');
  fleet = await fx.createFleet(db, organization, 'Kiosks');
  await fx.addFleetMember(db, observerId, fleet.id, 'observer');
  releaseId = await addRelease({
    kind: 'os',
    deviceType: 'raspberrypi4-64',
    version: '6.0.13',
    variant: 'prod',
  });
  supervisorId = await addRelease({
    kind: 'supervisor',
    cpuArchitecture: 'aarch64',
    version: '16.2.0',
  });
});
afterAll(async () => {
  await Promise.all([app.close(), linking.close()]);
  fileServer?.close();
  await db.close();
});

describe('provisioning images', () => {
  it('refuses image writes to anyone but a platform administrator', async () => {
    for (const who of [undefined, 'owner', 'observer']) {
      const headers = who === undefined ? {} : as(who);
      expect((await upload(releaseId, original, who ?? 'nobody')).statusCode).toBe(401);
      for (const call of [
        { method: 'GET', url: '/admin/v1/host-os/images' },
        { method: 'DELETE', url: `/admin/v1/host-os/releases/${releaseId}/image` },
        {
          method: 'POST',
          url: `/admin/v1/host-os/releases/${releaseId}/image-link`,
          payload: { url: `${fileUrl}/pi.img` },
        },
      ] as const) {
        const response = await linking.inject({ ...call, headers });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      }
    }
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a file that is no disk image with a FAT boot partition, keeping nothing', async () => {
    const response = await upload(releaseId, Buffer.alloc(4 * 1024 * 1024, 1));
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/not a disk image whose first partition is a FAT boot partition/);
    const supervisor = await upload(supervisorId, original);
    expect(supervisor.statusCode).toBe(400);
    expect(supervisor.body).toMatch(/Only host OS releases have provisioning images/);
    expect(await storedFiles()).toEqual([]);
  });

  it('hands out the image with the fleet config.json in its boot partition, once per link', async () => {
    const stored = await upload(releaseId, original);
    expect(stored.statusCode).toBe(201);
    expect(stored.json<OsImage>()).toMatchObject({
      release: releaseId,
      deviceType: 'raspberrypi4-64',
      version: '6.0.13',
      size: fatImageBytes,
      sha256: createHash('sha256').update(original).digest('hex'),
      sourceUrl: null,
    });
    const offered = await app.inject({
      url: '/v1/os-images?deviceType=raspberrypi4-64',
      headers: as('owner'),
    });
    expect(offered.json<OfferedOsImage[]>()).toEqual([
      expect.objectContaining({ release: releaseId, version: '6.0.13', variant: 'prod' }),
    ]);

    const refused = await askDownload('observer', { appId: fleet.id, release: releaseId });
    expect(refused.statusCode).toBe(401);
    const asked = await askDownload('owner', {
      appId: fleet.id,
      release: releaseId,
      appUpdatePollInterval: 5,
    });
    expect(asked.statusCode).toBe(200);
    const ticket = asked.json<OsImageDownload>();
    expect(ticket.filename).toMatch(/raspberrypi4-64-6\.0\.13\.img$/);
    // The ticket alone is the credential (a browser download sends no Authorization header).
    const image = await app.inject({ url: ticket.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-disposition']).toContain(ticket.filename);
    const bytes = image.rawPayload;
    expect(bytes.length).toBe(original.length);
    const config = JSON.parse(await readBootFile(bytes, 'config.json')) as Record<string, unknown>;
    expect(config).toMatchObject({
      applicationId: fleet.id,
      deviceType: 'raspberrypi4-64',
      appUpdatePollInterval: 300_000,
      osVersion: '6.0.13',
    });
    const key = await app.inject({
      url: '/actor/v1/whoami',
      headers: { authorization: `Bearer ${String(config.apiKey)}` },
    });
    expect(key.json()).toMatchObject({ actorType: 'application', actorTypeId: fleet.id });
    // The rest of the image is handed out as stored, and the stored file stays untouched.
    expect(await readBootFile(bytes, 'README.txt')).toBe('boot partition\n');
    expect(bytes.subarray(rootPartitionOffset).equals(original.subarray(rootPartitionOffset))).toBe(
      true,
    );
    const [file] = await storedFiles();
    expect(
      (await readFile(path.join(osImageDirectory(dataDir), file ?? ''))).equals(original),
    ).toBe(true);
    expect((await app.inject({ url: ticket.url })).statusCode).toBe(404);
  });

  it('lets a download link expire', async () => {
    const asked = await askDownload('owner', { appId: fleet.id, release: releaseId });
    const { url } = asked.json<OsImageDownload>();
    clock = new Date(clock.getTime() + 11 * 60 * 1000);
    const late = await app.inject({ url });
    expect(late.statusCode).toBe(404);
    expect(late.body).toMatch(/expired or was used already/);
  });

  it('fetches a linked image through the public-address guard', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: `/admin/v1/host-os/releases/${releaseId}/image-link`,
      headers: as('root'),
      payload: { url: `${fileUrl}/images/pi.img` },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/127\.0\.0\.1 is a loopback address/);
    const before = await storedFiles();
    expect(before).toHaveLength(1);

    const linked = await linking.inject({
      method: 'POST',
      url: `/admin/v1/host-os/releases/${releaseId}/image-link`,
      headers: as('root'),
      payload: { url: `${fileUrl}/moved` },
    });
    expect(linked.statusCode).toBe(201);
    expect(linked.json<OsImage>()).toMatchObject({
      sourceUrl: `${fileUrl}/moved`,
      filename: 'moved',
      size: original.length,
    });
    // The upload it replaces is removed.
    const after = await storedFiles();
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it('removes the image, and with its release', async () => {
    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${releaseId}/image`,
      headers: as('root'),
    });
    expect(removed.statusCode).toBe(204);
    expect(await storedFiles()).toEqual([]);
    const none = await app.inject({
      url: '/v1/os-images?deviceType=raspberrypi4-64',
      headers: as('owner'),
    });
    expect(none.json()).toEqual([]);

    expect((await upload(releaseId, original)).statusCode).toBe(201);
    const release = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/host-os/releases/${releaseId}`,
      headers: as('root'),
    });
    expect(release.statusCode).toBe(204);
    expect(await storedFiles()).toEqual([]);
  });
});
