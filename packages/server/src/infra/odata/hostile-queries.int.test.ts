import { textLengthLimits } from '@flotilla/shared/constants/limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  type DeviceFixture,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

type Row = Record<string, unknown>;
const rows = (body: unknown): Row[] => (body as { d: Row[] }).d;

// Words of PostgreSQL's own messages that must never reach a client.
const internals =
  /operator does not exist|out of range for type|invalid input syntax|bigint|double precision|could not determine/i;

describe('hostile /v7 queries', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: FleetFixture;
  let device: DeviceFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    const organization = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organization, 'administrator');
    fleet = await createFleet(db, organization, 'Greenhouse');
    device = await createDevice(db, fleet.id, 'sensor');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const ids = async (filter: string): Promise<unknown[]> => {
    const response = await api.get(`/device?$select=id&$filter=${filter}`, 'alice');
    expect(response.status, response.text).toBe(200);
    return rows(response.body).map((row) => row.id);
  };

  const refused = async (path: string): Promise<string> => {
    const response = await api.get(path, 'alice');
    expect(response.status, `${path}: ${response.text}`).toBe(400);
    expect(response.text).not.toMatch(internals);
    return response.text;
  };

  it('computes chained arithmetic in $filter, left to right', async () => {
    const id = device.id;
    expect(await ids(`id add 1 add 1 eq ${id + 2}`)).toEqual([id]);
    expect(await ids(`id sub 1 sub 1 eq ${id - 2}`)).toEqual([id]);
    expect(await ids(`id add 1 sub 2 eq ${id - 1}`)).toEqual([id]);
    expect(await ids(`id mul 2 add 1 eq ${id * 2 + 1}`)).toEqual([id]);
    expect(await ids(`id mul 3 div 3 mod 1000000 eq ${id}`)).toEqual([id]);
    expect(await ids(`id add 0.5 gt ${id}`)).toEqual([id]);
  });

  it('answers type errors and arithmetic faults with a 400 in our words', async () => {
    expect(await refused('/device?$filter=device_name add 1 eq 3')).toBe(
      "Type mismatch: 'add' in $filter expects a number, not a string",
    );
    expect(await refused("/device?$filter=id eq 'x'")).toBe(
      "Type mismatch: 'eq' in $filter compares a number with a string",
    );
    expect(await refused('/device?$filter=tolower(id) eq 1')).toMatch(/tolower\(\) in \$filter/);
    expect(await refused("/device?$filter=device_name in (1, 'a')")).toMatch(/Type mismatch/);
    expect(await refused("/device?$filter=id in ('a','b')")).toMatch(/Type mismatch/);
    expect(await refused("/device('abc')")).toBe(
      'Type mismatch: the key compares a number with a string',
    );
    expect(await refused('/device?$filter=id mod 1.5 eq 0')).toBe("'mod' needs whole numbers");
    expect(await refused('/device?$filter=id div 0 eq 1')).toBe('The request divides by zero');
    expect(await refused('/device?$filter=id mul 9007199254740991 mul 9007199254740991 eq 1')).toBe(
      'A number in the request is out of range',
    );
  });

  it('treats out-of-range numbers as values, never as a 500', async () => {
    expect(await ids('id eq 99999999999999999999')).toEqual([]);
    expect(await ids('id eq 2147483648')).toEqual([]);
    expect(await ids('id gt -99999999999999999999')).toEqual([device.id]);
    const missing = await api.get('/device(99999999999)', 'alice');
    expect(missing).toMatchObject({ status: 200, body: { d: [] } });
    expect(await refused('/device?$top=99999999999999999999')).toBe(
      '$top must be a non-negative integer',
    );
    expect(await refused('/device?$skip=99999999999999999999')).toBe(
      '$skip must be a non-negative integer',
    );
  });

  it('refuses 20 nested any() before running anything', async () => {
    const variable = (level: number): string => `v${String.fromCharCode(96 + level)}`;
    let filter = `${variable(20)}/id gt 0`;
    for (let level = 20; level >= 1; level--) {
      const navigation = level % 2 === 1 ? 'belongs_to__application' : 'owns__device';
      const parent = level === 1 ? '' : `${variable(level - 1)}/`;
      filter = `${parent}${navigation}/any(${variable(level)}:${filter})`;
    }
    expect(await refused(`/device?$select=id&$filter=${filter}`)).toBe(
      '$filter nests navigations (any()/all(), paths, $count) deeper than 4 levels',
    );
  });

  it('refuses overlong names and values, naming the field and the limit, and writes nothing', async () => {
    const count = async (): Promise<number> => {
      const { rows: counted } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM "application_environment_variable"',
      );
      return counted[0]?.n ?? -1;
    };
    const before = await count();
    const longName = await api.send(
      'POST',
      '/application_environment_variable',
      { application: fleet.id, name: `A${'B'.repeat(9_999)}`, value: 'x' },
      'alice',
    );
    expect(longName.status).toBe(400);
    expect(longName.text).toBe(
      `'name' of 'application_environment_variable' is longer than ${textLengthLimits.name} characters`,
    );
    const bigValue = await api.send(
      'POST',
      '/application_environment_variable',
      { application: fleet.id, name: 'BIG', value: 'v'.repeat(200 * 1024) },
      'alice',
    );
    expect(bigValue.status).toBe(400);
    expect(bigValue.text).toBe(
      `'value' of 'application_environment_variable' is longer than ${textLengthLimits.text} characters`,
    );
    const longDeviceName = await api.send(
      'PATCH',
      `/device(${device.id})`,
      { device_name: 'd'.repeat(textLengthLimits.name + 1) },
      'alice',
    );
    expect(longDeviceName.text).toMatch(/'device_name' of 'device' is longer than 255/);
    const fits = await api.send(
      'POST',
      '/application_environment_variable',
      { application: fleet.id, name: 'FITS', value: 'v'.repeat(textLengthLimits.text) },
      'alice',
    );
    expect(fits.status, fits.text).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});
