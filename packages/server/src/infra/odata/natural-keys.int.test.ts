import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createRelease,
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

// Composite natural keys in key position, as pinejs serves them and balena-sdk's pine.getOrCreate
// reads them: `service(application=1,service_name='main')`. Every get() also runs without the
// statement cache and must answer the same (odata-test-app.ts).
describe('composite alternate keys', () => {
  let db: Database;
  let api: ODataTestApp;
  let fleet: FleetFixture;
  let device: DeviceFixture;
  let serviceId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await createUser(db, 'alice');
    const mallory = await createUser(db, 'mallory');
    api.actors.set('alice', userActor(alice));
    api.actors.set('mallory', userActor(mallory));
    const organizationId = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organizationId, 'administrator');
    fleet = await createFleet(db, organizationId, 'Greenhouse');
    device = await createDevice(db, fleet.id, 'pump');
    await tagDevice(db, device.id, "it's", 'a (tricky), value');
    const { rows: services } = await db.query<{ id: number }>(
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main'), ($1, 'proxy') RETURNING "id"`,
      [fleet.id],
    );
    serviceId = services[0]?.id ?? 0;
    await createRelease(db, fleet.id, 'abc123');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('reads a row by a composite key, in any order of its parts', async () => {
    for (const key of [
      `application=${fleet.id},service_name='main'`,
      `service_name='main',application=${fleet.id}`,
    ]) {
      const response = await api.get(`/service(${key})?$select=id,service_name`, 'alice');
      expect(response.status, response.text).toBe(200);
      expect(rows(response.body)).toEqual([{ id: serviceId, service_name: 'main' }]);
    }
  });

  it('keeps the compiled statement of a composite-key read by its shape', async () => {
    const before = api.reads.stats();
    const url = (name: string) =>
      `/service(application=${fleet.id},service_name='${name}')?$select=id`;
    await api.get(url('main'), 'alice');
    const first = api.reads.stats();
    expect(first.shapes).toBe(before.shapes + 1);
    const again = await api.get(url('proxy'), 'alice');
    expect(rows(again.body)).toHaveLength(1);
    expect(api.reads.stats().hits).toBe(first.hits + 1);
  });

  it('answers an empty result, not 404, for a key that matches nothing or is not visible', async () => {
    const missing = await api.get(`/service(application=${fleet.id},service_name='nope')`, 'alice');
    expect(missing.status).toBe(200);
    expect(rows(missing.body)).toEqual([]);
    const hidden = await api.get(
      `/service(application=${fleet.id},service_name='main')`,
      'mallory',
    );
    expect(hidden.status === 401 || rows(hidden.body).length === 0).toBe(true);
  });

  it('serves the natural keys of tags, variables and releases', async () => {
    const tag = await api.get(
      `/device_tag(device=${device.id},tag_key='it''s')?$select=value`,
      'alice',
    );
    expect(rows(tag.body)).toEqual([{ value: 'a (tricky), value' }]);
    const release = await api.get(
      `/release(belongs_to__application=${fleet.id},commit='abc123')?$select=commit`,
      'alice',
    );
    expect(rows(release.body)).toEqual([{ commit: 'abc123' }]);
    // The same key through the resource's verb-phrase name.
    const synonym = await api.get(
      `/application__has__service_name(application=${fleet.id},service_name='proxy')?$select=service_name`,
      'alice',
    );
    expect(rows(synonym.body)).toEqual([{ service_name: 'proxy' }]);
  });

  it('refuses parts that are no natural key, and values of the wrong kind, with a 400', async () => {
    for (const [url, message] of [
      [`/service(service_name='main')`, "(service_name) is not a key of 'service'"],
      [
        `/service(application=${fleet.id},service_name='main',id=1)`,
        "(application, service_name, id) is not a key of 'service'",
      ],
      [`/service(application='x',service_name='main')`, "the key 'application'"],
    ] as const) {
      const response = await api.get(url, 'alice');
      expect(response.status, url).toBe(400);
      expect(response.text, url).toContain(message);
    }
  });

  it('writes by a composite key', async () => {
    const patched = await api.send(
      'PATCH',
      `/device_tag(device=${device.id},tag_key='it''s')`,
      { value: 'changed' },
      'alice',
    );
    expect(patched.status, patched.text).toBe(200);
    const tag = await api.get(`/device_tag?$filter=device eq ${device.id}&$select=value`, 'alice');
    expect(rows(tag.body)).toEqual([{ value: 'changed' }]);
  });
});
