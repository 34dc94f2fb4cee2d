import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The console's release picker (packages/web releases/release-picker-queries.ts) searches on the
// server: this is its request as the SDK sends it, answered by the engine. A version (raw_version
// or semver) containing the text, a commit starting with it, or a tag key or value containing it;
// successful final releases of the fleet only, newest first, 50 a page.

// As the SDK encodes a query: spaces and quotes percent-encoded, the rest left readable.
const encode = (text: string): string => text.replace(/ /g, '%20').replace(/'/g, '%27');

const pickerPath = (fleet: number, search: string, skip = 0): string => {
  const text = `'${search}'`;
  const filter =
    `belongs_to__application eq ${fleet} and status eq 'success' and is_final eq true and ` +
    `(contains(tolower(raw_version),${text}) or contains(tolower(semver),${text}) or ` +
    `startswith(tolower(commit),${text}) or ` +
    `release_tag/any(t:contains(tolower(t/tag_key),${text}) or contains(tolower(t/value),${text})))`;
  return (
    '/release?$select=id,commit,raw_version,created_at,is_invalidated,invalidation_reason' +
    `&$filter=${encode(filter)}&$orderby=${encode('created_at desc,id desc')}` +
    `&$top=50&$skip=${skip}`
  );
};

describe("the release picker's search", () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: fx.FleetFixture;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const member = await fx.createUser(db, 'member');
    const org = await fx.createOrganization(db, 'Pickers');
    fleet = await fx.createFleet(db, org, 'Garden');
    const other = await fx.createFleet(db, org, 'Other');
    await fx.addFleetMember(db, member.userId, fleet.id, 'developer');
    await fx.addFleetMember(db, member.userId, other.id, 'developer');
    ids.old = await fx.createRelease(db, fleet.id, 'ab12cd', { semver: [2, 4, 0] });
    ids.tagged = await fx.createRelease(db, fleet.id, 'ef34ab', { semver: [2, 5, 0] });
    ids.failed = await fx.createRelease(db, fleet.id, 'ab99ff', {
      status: 'failed',
      semver: [2, 4, 1],
    });
    ids.invalid = await fx.createRelease(db, fleet.id, 'ab77aa', { semver: [2, 4, 2] });
    ids.elsewhere = await fx.createRelease(db, other.id, 'ab12cd', { semver: [2, 4, 0] });
    await db.query(
      `INSERT INTO "release_tag" ("release", "tag_key", "value") VALUES ($1, 'Branch', 'Hotfix-Radio')`,
      [ids.tagged],
    );
    await db.query(
      `UPDATE "release" SET "is_invalidated" = true, "invalidation_reason" = 'Bricks the sensors'
        WHERE "id" = $1`,
      [ids.invalid],
    );
    // Creation order is the order of the ids; make it explicit for newest first.
    await db.query(`UPDATE "release" SET "created_at" = now() - make_interval(mins => 100 - "id")`);
    api.actors.set('member', userActor(member));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const found = async (search: string, skip = 0): Promise<unknown[]> => {
    const answer = await api.get(pickerPath(fleet.id, search, skip), 'member');
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { d: { id: number }[] }).d.map((row) => row.id);
  };

  it('finds by version, by commit prefix and by tag key or value, in this fleet only', async () => {
    expect(await found('2.4')).toEqual([ids.invalid, ids.old]);
    expect(await found('ab')).toEqual([ids.invalid, ids.old]);
    expect(await found('34ab')).toEqual([]);
    expect(await found('radio')).toEqual([ids.tagged]);
    expect(await found('branch')).toEqual([ids.tagged]);
    expect(await found('nothing')).toEqual([]);
  });

  it('answers the invalidated release with its reason, and pages with $skip', async () => {
    const answer = await api.get(pickerPath(fleet.id, '2.4.2'), 'member');
    expect((answer.body as { d: unknown[] }).d).toEqual([
      expect.objectContaining({
        id: ids.invalid,
        raw_version: '2.4.2',
        is_invalidated: true,
        invalidation_reason: 'Bricks the sensors',
      }),
    ]);
    expect(await found('2.')).toEqual([ids.invalid, ids.tagged, ids.old]);
    expect(await found('2.', 1)).toEqual([ids.tagged, ids.old]);
  });
});
