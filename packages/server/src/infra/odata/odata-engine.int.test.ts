import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  tagDevice,
  type DeviceFixture,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';

type Row = Record<string, unknown>;
const rows = (body: unknown): Row[] => (body as { d: Row[] }).d;

describe('the /v7 engine', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: FleetFixture;
  let other: FleetFixture;
  let devices: DeviceFixture[];
  let organizationId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    organizationId = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organizationId, 'administrator');
    fleet = await createFleet(db, organizationId, 'Greenhouse');
    other = await createFleet(db, organizationId, 'Warehouse', { deviceType: 'raspberrypi3' });
    devices = [];
    for (const [index, name] of ["O'Brien & co", 'beta', 'gamma', 'delta'].entries()) {
      devices.push(
        await createDevice(db, index < 3 ? fleet.id : other.id, name, {
          isOnline: index % 2 === 0,
        }),
      );
    }
    const [first, second] = devices;
    if (!first || !second) throw new Error('fixtures');
    await tagDevice(db, first.id, 'room', 'kitchen');
    await tagDevice(db, first.id, 'floor', '1');
    await tagDevice(db, second.id, 'room', 'attic');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('answers the envelope with {__id} for unexpanded foreign keys', async () => {
    const response = await api.get(
      `/device?$select=id,belongs_to__application&$filter=id eq ${devices[0]?.id}`,
      'alice',
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      d: [{ id: devices[0]?.id, belongs_to__application: { __id: fleet.id } }],
    });
  });

  it('returns every visible field without $select and never hidden ones', async () => {
    const response = await api.get('/user', 'alice');
    const [user] = rows(response.body);
    expect(user).toMatchObject({ username: 'alice' });
    expect(user).not.toHaveProperty('password_hash');
    expect(user).not.toHaveProperty('jwt_secret');
  });

  it('decodes percent-encoded literals with doubled quotes', async () => {
    const response = await api.get(
      '/device?$filter=device_name%20eq%20%27O%27%27Brien%20%26%20co%27&$select=device_name',
      'alice',
    );
    expect(rows(response.body)).toEqual([{ device_name: "O'Brien & co" }]);
  });

  it('expands to-one navigations as arrays, nests options and counts', async () => {
    const response = await api.get(
      `/application(${fleet.id})?$select=app_name&$expand=is_for__device_type($select=slug),owns__device($select=device_name;$orderby=device_name desc;$top=2;$expand=device_tag($select=tag_key;$orderby=tag_key)),organization($select=name)`,
      'alice',
    );
    expect(response.status).toBe(200);
    expect(rows(response.body)).toEqual([
      {
        app_name: 'Greenhouse',
        is_for__device_type: [{ slug: 'raspberrypi4-64' }],
        owns__device: [
          { device_name: 'gamma', device_tag: [] },
          { device_name: 'beta', device_tag: [{ tag_key: 'room' }] },
        ],
        organization: [{ name: 'Acme' }],
      },
    ]);
    const counted = await api.get(
      `/application?$select=app_name&$orderby=app_name&$expand=owns__device/$count($filter=is_online eq true)`,
      'alice',
    );
    expect(rows(counted.body)).toEqual([
      { app_name: 'Greenhouse', owns__device: 2 },
      { app_name: 'Warehouse', owns__device: 0 },
    ]);
  });

  it('filters with comparisons, in, not, functions, navigation paths and lambdas', async () => {
    const names = async (filter: string): Promise<unknown[]> => {
      const response = await api.get(
        `/device?$select=device_name&$orderby=device_name&$filter=${filter}`,
        'alice',
      );
      expect(response.status, response.text).toBe(200);
      return rows(response.body).map((row) => row.device_name);
    };
    expect(await names(`id in (${devices[1]?.id},${devices[2]?.id})`)).toEqual(['beta', 'gamma']);
    expect(await names("not(startswith(device_name,'g')) and note eq null")).toEqual([
      "O'Brien & co",
      'beta',
      'delta',
    ]);
    expect(
      await names("endswith(device_name,'ta') or contains(tolower(device_name),'brien')"),
    ).toEqual(["O'Brien & co", 'beta', 'delta']);
    expect(await names("belongs_to__application/app_name eq 'Warehouse'")).toEqual(['delta']);
    expect(await names(`belongs_to__application eq ${other.id}`)).toEqual(['delta']);
    expect(
      await names(
        `belongs_to__application/organization eq ${organizationId} and is_online eq false`,
      ),
    ).toEqual(['beta', 'delta']);
    expect(await names("device_tag/any(t:t/tag_key eq 'room' and t/value eq 'attic')")).toEqual([
      'beta',
    ]);
    expect(await names("device_tag/all(t:t/tag_key eq 'room')")).toEqual([
      'beta',
      'delta',
      'gamma',
    ]);
    expect(await names('device_tag/$count eq 0')).toEqual(['delta', 'gamma']);
    expect(
      await names(
        "belongs_to__application/any(a:a/is_for__device_type/any(dt:dt/is_of__cpu_architecture/any(c:c/slug eq 'aarch64')))",
      ),
    ).toEqual(["O'Brien & co", 'beta', 'gamma']);
    expect(await names("created_at gt datetime'2000-01-01T00:00:00Z'")).toHaveLength(4);
    expect(await names("created_at lt datetime'2000-01-01T00:00:00Z'")).toEqual([]);
  });

  it('supports constant predicates inside lambdas', async () => {
    const response = await api.get(
      '/application?$select=app_name&$filter=is_directly_accessible_by__user/any(dau:1 eq 1)&$orderby=app_name',
      'alice',
    );
    expect(rows(response.body).map((row) => row.app_name)).toEqual(['Greenhouse', 'Warehouse']);
  });

  it('orders by several keys, by navigation counts, and pages with $top/$skip', async () => {
    const byCount = await api.get(
      '/device?$select=device_name&$orderby=device_tag/$count desc,device_name&$top=2',
      'alice',
    );
    expect(rows(byCount.body).map((row) => row.device_name)).toEqual(["O'Brien & co", 'beta']);
    // An item without a direction sorts ascending even after a descending one.
    const mixed = await api.get(
      '/device?$select=device_name&$orderby=is_online desc,device_name&$skip=1&$top=2',
      'alice',
    );
    expect(rows(mixed.body).map((row) => row.device_name)).toEqual(['gamma', 'beta']);
  });

  it('reads by id and by alternate key, and answers an unknown key with an empty list', async () => {
    const device = devices[2];
    const byUuid = await api.get(`/device(uuid='${device?.uuid}')?$select=id`, 'alice');
    expect(rows(byUuid.body)).toEqual([{ id: device?.id }]);
    const byId = await api.get(`/device(${device?.id})?$select=uuid`, 'alice');
    expect(rows(byId.body)).toEqual([{ uuid: device?.uuid }]);
    const missing = await api.get("/device(uuid='ffffffffffffffffffffffffffffffff')", 'alice');
    expect(missing).toMatchObject({ status: 200, body: { d: [] } });
    expect((await api.get("/organization(handle='acme')?$select=name", 'alice')).body).toEqual({
      d: [{ name: 'Acme' }],
    });
  });

  it('counts a collection with /$count', async () => {
    const response = await api.get(
      `/device/$count?$filter=belongs_to__application eq ${fleet.id}`,
      'alice',
    );
    expect(response.body).toEqual({ d: 3 });
  });

  it('selects and filters computed fields like columns', async () => {
    const response = await api.get(
      `/device?$select=device_name,overall_status,overall_progress&$filter=overall_status ne 'inactive'&$orderby=device_name&$top=1`,
      'alice',
    );
    expect(response.status, response.text).toBe(200);
    const [row] = rows(response.body);
    expect(typeof row?.overall_status).toBe('string');
    expect(row).toHaveProperty('overall_progress');
  });

  it('tolerates duplicate $select entries and selecting an expanded navigation', async () => {
    const response = await api.get(
      `/device(${devices[0]?.id})?$select=id,id,is_of__device_type&$expand=is_of__device_type($select=slug)`,
      'alice',
    );
    expect(rows(response.body)).toEqual([
      { id: devices[0]?.id, is_of__device_type: [{ slug: 'raspberrypi4-64' }] },
    ]);
  });

  it('creates with 201 and the object, patches and deletes by key and by filter', async () => {
    const created = await api.send(
      'POST',
      '/device_tag',
      { device: devices[3]?.id, tag_key: 'zone', value: 'a' },
      'alice',
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      tag_key: 'zone',
      value: 'a',
      device: { __id: devices[3]?.id },
    });
    const duplicate = await api.send(
      'POST',
      '/device_tag',
      { device: devices[3]?.id, tag_key: 'zone', value: 'b' },
      'alice',
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.text).toMatch(/unique/i);
    const patched = await api.send(
      'PATCH',
      `/device_tag?$filter=device eq ${devices[3]?.id} and tag_key eq 'zone'`,
      { value: 'b' },
      'alice',
    );
    expect(patched).toMatchObject({ status: 200, text: '' });
    const read = await api.get(
      `/device_tag?$select=value&$filter=device eq ${devices[3]?.id}`,
      'alice',
    );
    expect(rows(read.body)).toEqual([{ value: 'b' }]);
    const id = (created.body as { id: number }).id;
    expect((await api.send('PATCH', `/device_tag(${id})`, { value: 'c' }, 'alice')).status).toBe(
      200,
    );
    expect(rows((await api.get(`/device_tag(${id})?$select=value`, 'alice')).body)).toEqual([
      { value: 'c' },
    ]);
    expect(
      (
        await api.send(
          'DELETE',
          `/device_tag?$filter=device eq ${devices[3]?.id}`,
          undefined,
          'alice',
        )
      ).status,
    ).toBe(200);
    expect(
      (await api.get(`/device_tag/$count?$filter=device eq ${devices[3]?.id}`, 'alice')).body,
    ).toEqual({ d: 0 });
  });

  it('runs hooks: organizations get a handle and their creator as administrator', async () => {
    const created = await api.send('POST', '/organization', { name: 'Second Org' }, 'alice');
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Second Org', handle: 'second_org' });
    const id = (created.body as { id: number }).id;
    const fleetCreated = await api.send(
      'POST',
      '/application',
      { app_name: 'Fresh', organization: id, is_for__device_type: 1 },
      'alice',
    );
    expect(fleetCreated.status, fleetCreated.text).toBe(201);
    expect(fleetCreated.body).toMatchObject({
      app_name: 'Fresh',
      slug: 'second_org/fresh',
      is_of__class: 'fleet',
    });
  });

  it('rejects bad input with a 400 naming the problem and writes nothing', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['GET', '/device?$filter=eq eq', undefined, /Malformed/],
      ['GET', '/nonsense', undefined, /Unknown resource 'nonsense'/],
      ['GET', '/device?$select=nope', undefined, /Unknown field 'nope'/],
      ['GET', "/device?$filter=id eq 'x'", undefined, /Type mismatch|Invalid value/],
      ['GET', '/device?$top=-1', undefined, /Malformed|\$top/],
      ['GET', '/device?$format=json', undefined, /Unsupported query option/],
      [
        'GET',
        '/device?$expand=belongs_to__application($expand=organization($expand=application($expand=owns__device($expand=belongs_to__application($expand=organization($expand=application))))))',
        undefined,
        /deeper than/,
      ],
      [
        'POST',
        '/device_tag',
        { device: devices[0]?.id, tag_key: 'x', value: 'y', bogus: 1 },
        /Unknown field 'bogus'/,
      ],
      ['POST', '/device_tag', { device: 'abc', tag_key: 'x', value: 'y' }, /must be an integer/],
      ['POST', '/device_tag', [1, 2], /JSON object/],
      ['PATCH', '/device_tag', { value: 'x' }, /needs a \$filter/],
      ['PATCH', `/device(${devices[0]?.id})`, { uuid: 'x' }, /only be set on creation/],
      ['PATCH', `/device(${devices[0]?.id})`, { overall_status: 'x' }, /cannot be written/],
    ];
    for (const [method, path, body, message] of cases) {
      const response =
        method === 'GET'
          ? await api.get(path, 'alice')
          : await api.send(method as 'POST' | 'PATCH', path, body, 'alice');
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(400);
      expect(response.text).toMatch(message);
    }
    expect((await api.get("/device_tag/$count?$filter=tag_key eq 'x'", 'alice')).body).toEqual({
      d: 0,
    });
  });
});
