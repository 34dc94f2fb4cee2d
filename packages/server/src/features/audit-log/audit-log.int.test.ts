import type { AuditEntry, AuditPage } from '@flotilla/shared/audit-log/audit-entry';
import { auditSecretMask } from '@flotilla/shared/audit-log/audit-entry';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';

// The audit log end to end: one record per kind of change, masked secrets, the administrator
// behind a login-as, atomicity both ways, filters and exports.
let db: Database;
let app: FastifyInstance;
let organization: number;
let fleet: fx.FleetFixture;
let device: fx.DeviceFixture;
let admin: { id: number; token: string };
let platformAdmin: { id: number; token: string };

const entries = async (query = '', token = admin.token): Promise<AuditEntry[]> => {
  const response = await app.inject({
    method: 'GET',
    url: `/audit-log/v1/organizations/${organization}/entries${query}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditPage>().entries;
};

const recordCount = async (): Promise<number> =>
  (await db.query<{ n: number }>('SELECT count(*)::integer AS "n" FROM "audit_log_entry"')).rows[0]
    ?.n ?? -1;

const v7 = (
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  token = admin.token,
) =>
  app.inject({
    method,
    url: `/v7/${url}`,
    headers: { ...bearer(token), 'user-agent': 'audit-test/1.0' },
    ...(payload === undefined ? {} : { payload }),
  });

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  organization = await fx.createOrganization(db, 'Audited');
  fleet = await fx.createFleet(db, organization, 'Watched');
  device = await fx.createDevice(db, fleet.id, 'watched-one');
  admin = await signedInUser(db, app, 'auditadmin');
  await fx.addOrganizationMember(db, admin.id, organization, 'administrator');
  platformAdmin = await signedInUser(db, app, 'platformboss', 'balena_admin');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('v7 writes', () => {
  it('records a create, an update (old and new) and a delete with who, where from and the request id', async () => {
    const created = await v7('POST', 'device_tag', {
      device: device.id,
      tag_key: 'room',
      value: 'kitchen',
    });
    expect(created.statusCode, created.body).toBe(201);
    const tagId = created.json<{ id: number }>().id;
    expect((await v7('PATCH', `device_tag(${tagId})`, { value: 'attic' })).statusCode).toBe(200);
    expect((await v7('DELETE', `device_tag(${tagId})`)).statusCode).toBe(200);

    const tagEntries = (await entries('?resource=device_tag')).reverse();
    expect(tagEntries.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    const [create, update, remove] = tagEntries;
    expect(create?.changes).toMatchObject({ tag_key: { new: 'room' }, value: { new: 'kitchen' } });
    expect(update?.changes).toEqual({ value: { old: 'kitchen', new: 'attic' } });
    expect(remove?.changes).toMatchObject({ value: { old: 'attic' } });
    for (const entry of tagEntries) {
      expect(entry).toMatchObject({
        resourceId: tagId,
        organizationId: organization,
        fleetId: fleet.id,
        deviceId: device.id,
        userAgent: 'audit-test/1.0',
        actor: { kind: 'user', userId: admin.id, username: 'auditadmin', via: 'session' },
      });
      expect(entry.requestId).toEqual(expect.any(String));
      expect(entry.address).toEqual(expect.any(String));
    }
  });

  it('masks variable values, whatever they hold', async () => {
    const created = await v7('POST', 'device_environment_variable', {
      device: device.id,
      name: 'DB_PASSWORD',
      value: 'hunter2',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await v7('PATCH', `device_environment_variable(${id})`, { value: 'hunter3' });
    const [update, create] = await entries('?resource=device_environment_variable');
    expect(create?.changes).toMatchObject({
      name: { new: 'DB_PASSWORD' },
      value: { new: auditSecretMask },
    });
    expect(update?.changes).toEqual({ value: { old: auditSecretMask, new: auditSecretMask } });
    const text = JSON.stringify(await entries());
    expect(text).not.toContain('hunter');
  });

  it('leaves no record of a refused write', async () => {
    const before = await recordCount();
    const refused = await v7('PATCH', `device(${device.id})`, { belongs_to__application: 999_999 });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await recordCount()).toBe(before);
  });

  it('refuses the change when its record cannot be written', async () => {
    await db.query(`CREATE FUNCTION audit_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit log unavailable'; END $$`);
    await db.query(`CREATE TRIGGER audit_refuse BEFORE INSERT ON "audit_log_entry"
      FOR EACH ROW EXECUTE FUNCTION audit_refuse()`);
    try {
      const response = await v7('PATCH', `device(${device.id})`, { device_name: 'renamed' });
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await db.query('DROP TRIGGER audit_refuse ON "audit_log_entry"');
      await db.query('DROP FUNCTION audit_refuse()');
    }
    const { rows } = await db.query<{ device_name: string }>(
      'SELECT "device_name" FROM "device" WHERE "id" = $1',
      [device.id],
    );
    expect(rows[0]?.device_name).toBe('watched-one');
  });
});

describe('events', () => {
  it('records logins and failed logins, with no password', async () => {
    const failed = await app.inject({
      method: 'POST',
      url: '/login_',
      payload: { username: 'auditadmin', password: 'wrong-password-9' },
    });
    expect(failed.statusCode).toBe(401);
    const page = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/entries?resource=user&user=${admin.id}`,
      headers: bearer(platformAdmin.token),
    });
    expect(page.statusCode).toBe(200);
    const logins = page.json<AuditPage>().entries.filter((entry) => entry.action === 'login');
    expect(logins).toHaveLength(1);
    const { rows } = await db.query<{ action: string; resource_id: number; changes: unknown }>(
      `SELECT "action", "resource_id", "changes" FROM "audit_log_entry" WHERE "action" = 'login_failed'`,
    );
    expect(rows).toEqual([{ action: 'login_failed', resource_id: admin.id, changes: {} }]);
    expect(JSON.stringify(rows)).not.toContain('wrong-password');
  });

  it('names the administrator behind a login-as on every change of that session', async () => {
    const loginAs = await app.inject({
      method: 'PATCH',
      url: '/login_',
      headers: bearer(platformAdmin.token),
      payload: { username: 'auditadmin' },
    });
    expect(loginAs.statusCode, loginAs.body).toBe(200);
    const tag = await v7(
      'POST',
      'device_tag',
      { device: device.id, tag_key: 'by', value: 'impersonator' },
      loginAs.body,
    );
    expect(tag.statusCode).toBe(201);
    const [write] = await entries('?resource=device_tag');
    expect(write?.actor).toMatchObject({
      userId: admin.id,
      impersonatedBy: platformAdmin.id,
      impersonatedByUsername: 'platformboss',
    });
    const { rows } = await db.query<{ impersonated_by: number }>(
      `SELECT "impersonated_by" FROM "audit_log_entry" WHERE "action" = 'login_as'`,
    );
    expect(rows).toEqual([{ impersonated_by: platformAdmin.id }]);
  });

  it('records a change through a route of its own with its device, never its body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api-key/user/full',
      headers: bearer(admin.token),
      payload: { name: 'ci', password: 'auditadmin-password' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { rows } = await db.query<{ resource: string; changes: unknown }>(
      `SELECT "resource", "changes" FROM "audit_log_entry" WHERE "action" = 'api_key_created'`,
    );
    expect(rows).toContainEqual({
      resource: 'POST /api-key/user/full',
      changes: { params: {}, status: 200 },
    });
    expect(JSON.stringify(rows)).not.toContain('auditadmin-password');
  });
});

describe('reading the log', () => {
  it('filters by device, fleet, user and time, and pages by id', async () => {
    const byDevice = await entries(`?device=${device.id}`);
    expect(byDevice.length).toBeGreaterThan(3);
    expect(byDevice.every((entry) => entry.deviceId === device.id)).toBe(true);
    expect(await entries(`?fleet=${fleet.id + 1000}`)).toEqual([]);
    expect((await entries(`?user=${admin.id}`)).length).toBeGreaterThan(0);
    expect(await entries('?from=2100-01-01T00:00:00Z')).toEqual([]);
    const [first, second] = await entries('?limit=2');
    const next = await entries(`?before=${second?.id ?? 0}&limit=1`);
    expect(first?.id).toBeGreaterThan(second?.id ?? 0);
    expect(next[0]?.id).toBeLessThan(second?.id ?? 0);
  });

  it('filters by username, fleet name or slug and the start of a device uuid, as by their ids', async () => {
    const ids = (list: AuditEntry[]) => list.map((entry) => entry.id);
    const byDevice = ids(await entries(`?device=${device.id}`));
    expect(ids(await entries(`?deviceUuid=${device.uuid.slice(0, 7).toUpperCase()}`))).toEqual(
      byDevice,
    );
    expect(await entries('?deviceUuid=fffffff0')).toEqual([]);
    const byFleet = ids(await entries(`?fleet=${fleet.id}`));
    expect(byFleet.length).toBeGreaterThan(0);
    expect(ids(await entries(`?fleetName=${encodeURIComponent(fleet.slug)}`))).toEqual(byFleet);
    expect(ids(await entries('?fleetName=Watched'))).toEqual(byFleet);
    expect(await entries('?fleetName=nowhere')).toEqual([]);
    const byUser = ids(await entries(`?user=${admin.id}`));
    expect(ids(await entries('?username=auditadmin'))).toEqual(byUser);
    expect(await entries('?username=nobody-here')).toEqual([]);
    const route = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/entries?resource=${encodeURIComponent('POST /api-key/user/full')}`,
      headers: bearer(platformAdmin.token),
    });
    expect(route.statusCode, route.body).toBe(200);
    const routeEntries = route.json<AuditPage>().entries;
    expect(routeEntries.length).toBeGreaterThan(0);
    expect(routeEntries.every((entry) => entry.resource === 'POST /api-key/user/full')).toBe(true);
  });

  it('refuses bad filters with a clear message', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/organizations/${organization}/entries?from=yesterday`,
      headers: bearer(admin.token),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('From must be an ISO date and time');
    const uuid = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/organizations/${organization}/entries?deviceUuid=xyz`,
      headers: bearer(admin.token),
    });
    expect(uuid.statusCode).toBe(400);
    expect(uuid.body).toContain('Device must be a device id or the start of its UUID');
  });

  it('exports CSV and NDJSON', async () => {
    const csv = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/organizations/${organization}/export?format=csv&resource=device_tag`,
      headers: bearer(admin.token),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,occurred_at,action,resource,/);
    expect(lines).toHaveLength(5);
    const ndjson = await app.inject({
      method: 'GET',
      url: `/audit-log/v1/organizations/${organization}/export?format=ndjson&resource=device_tag`,
      headers: bearer(admin.token),
    });
    const records = ndjson.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(records.map((record) => record.action)).toEqual([
      'create',
      'delete',
      'update',
      'create',
    ]);
  });
});
