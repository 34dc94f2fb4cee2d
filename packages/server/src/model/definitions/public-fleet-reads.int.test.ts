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
// tags and fleet tags of a public fleet (host OS, supervisor), and nothing of a private fleet
// they have no role in, in lists, in counts and in nested reads alike.

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
      for (const commit of ['aaa1', 'bbb2', 'ccc3']) {
        const release = await fx.createRelease(db, fleet.id, `${commit}${fleet.id}`);
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
});
