import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import {
  addFleetMember,
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';

// Pages ($top/$skip with $orderby) are picked by id first and their rows read afterwards: the
// pages, put end to end, must be exactly the ordered list, whatever ties, nulls, the end of the
// list or the caller's permissions.

type Row = Record<string, unknown>;

describe('paged /v7 reads', () => {
  let db: Database;
  let api: ODataTestApp;
  let mine: FleetFixture;
  let theirs: FleetFixture;
  const mineIds: number[] = [];

  const read = async (path: string, as = 'admin'): Promise<Row[]> => {
    const response = await api.get(path, as);
    expect(response.status, response.text).toBe(200);
    return (response.body as { d: Row[] }).d;
  };

  // Every page of `size` rows, put end to end, until an empty page.
  const allPages = async (path: string, size: number, as = 'admin'): Promise<Row[]> => {
    const rows: Row[] = [];
    for (let skip = 0; ; skip += size) {
      const page = await read(`${path}&$top=${size}&$skip=${skip}`, as);
      rows.push(...page);
      if (page.length < size) return rows;
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const admin = await createUser(db, 'admin');
    const member = await createUser(db, 'member');
    api.actors.set('admin', userActor(admin));
    api.actors.set('member', userActor(member));
    const organization = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, admin.userId, organization, 'administrator');
    mine = await createFleet(db, organization, 'Mine');
    theirs = await createFleet(db, organization, 'Theirs');
    await addFleetMember(db, member.userId, mine.id, 'developer');
    // Names with ties (three "same", two "twin"), notes with nulls, devices in both fleets
    // interleaved so that ids alone do not separate them.
    const names = ['same', 'twin', 'alpha', 'same', 'zulu', 'twin', 'same', 'beta', 'omega'];
    for (const [index, name] of names.entries()) {
      for (const fleet of [mine, theirs]) {
        const device = await createDevice(db, fleet.id, name, { isOnline: index % 2 === 0 });
        if (fleet === mine) mineIds.push(device.id);
        const note = index % 3 === 0 ? null : `note ${index % 4}`;
        await db.query(`UPDATE "device" SET "note" = $2 WHERE "id" = $1`, [device.id, note]);
      }
    }
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const ids = (rows: Row[]): unknown[] => rows.map((row) => row.id);

  it('puts ties in id order, so pages neither repeat nor skip a row', async () => {
    const path = '/device?$select=id,device_name&$orderby=device_name asc';
    const whole = await read(`${path},id asc`);
    expect(whole).toHaveLength(18);
    for (const size of [1, 2, 4, 5]) {
      const paged = await allPages(path, size);
      expect(ids(paged)).toEqual(ids(whole));
    }
    // Descending keys keep ids ascending within a tie.
    const descending = await allPages('/device?$select=id&$orderby=device_name desc', 4);
    const expected = await read('/device?$select=id&$orderby=device_name desc,id asc');
    expect(ids(descending)).toEqual(ids(expected));
  });

  it('orders nulls as PostgreSQL does (last ascending, first descending) on every page', async () => {
    for (const direction of ['asc', 'desc']) {
      const path = `/device?$select=id,note&$orderby=note ${direction}`;
      const paged = await allPages(path, 3);
      expect(paged).toEqual(await read(`${path},id asc`));
      const nulls = paged.map((row) => row.note === null);
      const firstNull = nulls.indexOf(true);
      expect(firstNull).toBeGreaterThanOrEqual(0);
      const nullRun = nulls.slice(
        direction === 'asc' ? firstNull : 0,
        direction === 'asc' ? undefined : nulls.lastIndexOf(true) + 1,
      );
      expect(nullRun.every(Boolean)).toBe(true);
    }
  });

  it('answers an empty page past the end, and a partial one at it', async () => {
    const path = '/device?$select=id&$orderby=device_name asc';
    expect(await read(`${path}&$top=5&$skip=18`)).toEqual([]);
    expect(await read(`${path}&$top=5&$skip=1000`)).toEqual([]);
    expect(await read(`${path}&$skip=1000`)).toEqual([]);
    expect(await read(`${path}&$top=5&$skip=16`)).toHaveLength(2);
    expect(await read(`${path}&$top=0`)).toEqual([]);
  });

  it('pages only the rows the caller may read', async () => {
    const path =
      '/device?$select=id,device_name&$expand=belongs_to__application($select=id)' +
      '&$orderby=device_name asc';
    const paged = await allPages(path, 4, 'member');
    expect(paged.map((row) => row.id).sort((a, b) => Number(a) - Number(b))).toEqual(mineIds);
    for (const row of paged) {
      expect(row.belongs_to__application).toEqual([{ id: mine.id }]);
    }
    // A deep page of the member's devices is the admin's page of the same fleet, not of all.
    const filtered = `/device?$select=id&$filter=belongs_to__application eq ${mine.id}&$orderby=device_name asc`;
    expect(await read(`${filtered}&$top=3&$skip=6`, 'member')).toEqual(
      await read(`${filtered}&$top=3&$skip=6`),
    );
    expect(
      await read(
        `/device?$select=id&$filter=belongs_to__application eq ${theirs.id}&$orderby=device_name asc&$top=3`,
        'member',
      ),
    ).toEqual([]);
  });

  it('pages expansions the same way', async () => {
    const path = `/application(${mine.id})?$select=id&$expand=owns__device($select=id;$orderby=device_name asc`;
    const whole = await read(`${path},id asc)`);
    const expected = ids((whole[0]?.owns__device as Row[] | undefined) ?? []);
    const pages: unknown[] = [];
    for (let skip = 0; skip < 9; skip += 2) {
      const [fleet] = await read(`${path};$top=2;$skip=${skip})`);
      pages.push(...ids((fleet?.owns__device as Row[] | undefined) ?? []));
    }
    expect(expected).toHaveLength(9);
    expect(pages).toEqual(expected);
  });

  it('pages by a computed field and by a navigation path', async () => {
    for (const orderby of ['is_online desc', 'belongs_to__application/app_name desc']) {
      const path = `/device?$select=id&$orderby=${orderby}`;
      expect(ids(await allPages(path, 5))).toEqual(ids(await read(`${path},id asc`)));
    }
  });
});
