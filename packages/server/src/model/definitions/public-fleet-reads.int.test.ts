import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The "public" scope (sql-helpers.ts isPublicApplication): anybody reads the releases, release
// tags, images (a catalogue release's updater image) and fleet tags of a public fleet (host OS,
// supervisor), and nothing of a private fleet they have no role in, in lists, in counts and in
// nested reads alike.

describe('reads of public fleets', () => {
  let db: Database;
  let api: ODataTestApp;
  let open: fx.FleetFixture;
  let closed: fx.FleetFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const stranger = await fx.createUser(db, 'stranger');
    const owners = await fx.createOrganization(db, 'Owners');
    open = await fx.createFleet(db, owners, 'Open', { isPublic: true });
    closed = await fx.createFleet(db, owners, 'Closed');
    for (const fleet of [open, closed]) {
      const service = await db.query<{ id: number }>(
        `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id"`,
        [fleet.id],
      );
      const serviceId = service.rows[0]?.id;
      if (serviceId === undefined) throw new Error('no service');
      for (const commit of ['aaa1', 'bbb2', 'ccc3']) {
        const release = await fx.createRelease(db, fleet.id, `${commit}${fleet.id}`);
        await db.query(
          `WITH i AS (
             INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
             VALUES ($1, $2, 'success') RETURNING "id")
           INSERT INTO "release_image" ("image", "is_part_of__release") SELECT "id", $3 FROM i`,
          [serviceId, `registry.example.com/${commit}${fleet.id}`, release],
        );
        await db.query(
          `INSERT INTO "release_tag" ("release", "tag_key", "value") VALUES ($1, 'branch', 'main')`,
          [release],
        );
        await db.query(
          `INSERT INTO "release_asset" ("release", "asset_key") VALUES ($1, 'os/image.zip')`,
          [release],
        );
      }
      await db.query(
        `INSERT INTO "application_tag" ("application", "tag_key", "value") VALUES ($1, 'os', 'yes')`,
        [fleet.id],
      );
    }
    api.actors.set('stranger', userActor(stranger));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const rows = async (path: string): Promise<unknown> => {
    const answer = await api.get(path, 'stranger');
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { d: unknown }).d;
  };

  it("lists and counts a public fleet's releases and tags, and none of a private fleet's", async () => {
    for (const [fleet, expected] of [
      [open, 3],
      [closed, 0],
    ] as const) {
      const filter = `$filter=belongs_to__application%20eq%20${fleet.id}`;
      expect(await rows(`/release?$select=id&${filter}`)).toHaveLength(expected);
      expect(await rows(`/release/$count?${filter}`)).toBe(expected);
      expect(
        await rows(
          `/release_tag/$count?$filter=release/any(r:r/belongs_to__application%20eq%20${fleet.id})`,
        ),
      ).toBe(expected);
      // Release assets too (a host OS release's files, which the OS version options read).
      expect(
        await rows(
          `/release_asset/$count?$filter=release/any(r:r/belongs_to__application%20eq%20${fleet.id})`,
        ),
      ).toBe(expected);
      // Their images, and the links between releases and images.
      expect(
        await rows(
          `/image/$count?$filter=is_part_of__release/any(ri:ri/is_part_of__release/any(r:r/belongs_to__application%20eq%20${fleet.id}))`,
        ),
      ).toBe(expected);
      expect(
        await rows(
          `/release_image/$count?$filter=is_part_of__release/any(r:r/belongs_to__application%20eq%20${fleet.id})`,
        ),
      ).toBe(expected);
      expect(await rows(`/application_tag/$count?$filter=application%20eq%20${fleet.id}`)).toBe(
        expected === 0 ? 0 : 1,
      );
    }
  });

  it("counts a public fleet's releases through the fleet, and expands their tags", async () => {
    expect(await rows(`/application(${open.id})?$select=id&$expand=owns__release/$count`)).toEqual([
      { id: open.id, owns__release: 3 },
    ]);
    const releases = await rows(
      `/release?$select=id&$filter=belongs_to__application%20eq%20${open.id}&$expand=release_tag($select=value)`,
    );
    expect(releases).toEqual(
      expect.arrayContaining([expect.objectContaining({ release_tag: [{ value: 'main' }] })]),
    );
    expect(await rows(`/application(${closed.id})?$select=id`)).toEqual([]);
  });

  it("expands a public release's image location, as an agent reads its supervisor release", async () => {
    for (const [fleet, expected] of [
      [
        open,
        [{ image: [{ is_stored_at__image_location: `registry.example.com/aaa1${open.id}` }] }],
      ],
      [closed, undefined],
    ] as const) {
      const releases = await rows(
        `/release?$select=id&$filter=commit%20eq%20'aaa1${fleet.id}'&$expand=contains__image($select=id;$expand=image($select=is_stored_at__image_location))`,
      );
      expect(releases).toEqual(
        expected === undefined
          ? []
          : [expect.objectContaining({ contains__image: [expect.objectContaining(expected[0])] })],
      );
    }
  });
});
