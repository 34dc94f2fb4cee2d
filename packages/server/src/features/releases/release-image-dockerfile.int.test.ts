import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

type Row = Record<string, unknown>;

// A client that builds its own images (balena deploy) records each image's Dockerfile on the
// image, as the server's builder does; the release page reads it back through the release.
describe("an image's Dockerfile over /v7", () => {
  let db: Database;
  let api: ODataTestApp;
  let fleetId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    const organizationId = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organizationId, 'administrator');
    fleetId = (await createFleet(db, organizationId, 'dockerfiles')).id;
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const created = async (path: string, body: Row): Promise<number> => {
    const response = await api.send('POST', path, body, 'alice');
    expect(response.status, response.text).toBe(201);
    return (response.body as { id: number }).id;
  };

  it('keeps the Dockerfile a client posts or patches, and serves it with the release', async () => {
    const dockerfile = 'FROM alpine:3.20\nRUN apk add --no-cache curl\n';
    const releaseId = await created('/release', {
      belongs_to__application: fleetId,
      commit: 'c0ffee0123456789',
      status: 'running',
      source: 'local',
      composition: { services: { api: { build: '.' }, web: { build: 'web' } } },
    });
    const apiService = await created('/service', { application: fleetId, service_name: 'api' });
    const webService = await created('/service', { application: fleetId, service_name: 'web' });
    // One image named with its Dockerfile at once, the other given it once built, as
    // balena-cli does.
    const apiImage = await created('/image', {
      is_a_build_of__service: apiService,
      status: 'success',
      dockerfile,
    });
    const webImage = await created('/image', {
      is_a_build_of__service: webService,
      status: 'running',
    });
    const patched = await api.send(
      'PATCH',
      `/image(${webImage})`,
      { status: 'success', dockerfile: 'FROM nginx:1.27\n', project_type: 'Dockerfile' },
      'alice',
    );
    expect(patched.status, patched.text).toBe(200);
    for (const image of [apiImage, webImage]) {
      await created('/release_image', { image, is_part_of__release: releaseId });
    }

    const read = await api.get(
      `/release(${releaseId})?$select=id&$expand=release_image($select=id;$expand=image($select=id,dockerfile;$orderby=id asc))`,
      'alice',
    );
    expect(read.status, read.text).toBe(200);
    const [release] = (read.body as { d: { release_image: { image: Row[] }[] }[] }).d;
    const images = (release?.release_image ?? [])
      .flatMap((part) => part.image)
      .sort((a, b) => Number(a.id) - Number(b.id));
    expect(images).toEqual([
      { id: apiImage, dockerfile },
      { id: webImage, dockerfile: 'FROM nginx:1.27\n' },
    ]);
  });

  it('refuses a Dockerfile that is not text with a 400, changing nothing', async () => {
    const service = await created('/service', { application: fleetId, service_name: 'bad' });
    const image = await created('/image', { is_a_build_of__service: service, status: 'running' });
    const refused = await api.send('PATCH', `/image(${image})`, { dockerfile: 42 }, 'alice');
    expect(refused.status).toBe(400);
    const [row] = (
      await db.query<{ dockerfile: string | null }>(
        'SELECT "dockerfile" FROM "image" WHERE "id" = $1',
        [image],
      )
    ).rows;
    expect(row?.dockerfile).toBeNull();
  });
});
