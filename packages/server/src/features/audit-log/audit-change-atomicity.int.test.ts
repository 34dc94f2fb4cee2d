import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlValue } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { withAuditRefused as refusingAudit } from '../../test-support/audit-refusal.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// One change of each kind and its record commit together: a refused change leaves no record, and
// a change whose record cannot be written (a trigger refuses every insert into the log meanwhile)
// does not happen. Registrations, account changes and settings are routes of their own;
// memberships, roles and key revocations are /v7 writes.
let db: Database;
let app: FastifyInstance;
let organization: number;
let fleet: fx.FleetFixture;
let admin: { id: number; token: string };
let member: { id: number; token: string };
let platformAdmin: { id: number; token: string };
let provisioningKey: string;

const withAuditRefused = (work: () => Promise<void>) => refusingAudit(db, work);

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
const call = (token: string, { method, url, payload }: Call) =>
  app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

type Record = {
  action: string;
  resource: string;
  organization: number | null;
  application: number | null;
  device: number | null;
  actor_user: number | null;
};
const records = async (resource: string): Promise<Record[]> =>
  (
    await db.query<Record>(
      `SELECT "action", "resource", "organization", "application", "device", "actor_user"
         FROM "audit_log_entry" WHERE "resource" = $1 ORDER BY "id"`,
      [resource],
    )
  ).rows;

const one = async <Row extends object>(sql: string, params: SqlValue[] = []): Promise<Row> => {
  const { rows } = await db.query<Row>(sql, params);
  const [row] = rows;
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  organization = await fx.createOrganization(db, 'Together');
  fleet = await fx.createFleet(db, organization, 'Atomic', { deviceType: 'raspberrypi4-64' });
  admin = await signedInUser(db, app, 'togetheradmin');
  await fx.addOrganizationMember(db, admin.id, organization, 'administrator');
  member = await signedInUser(db, app, 'togethermember');
  await fx.addOrganizationMember(db, member.id, organization, 'member');
  platformAdmin = await signedInUser(db, app, 'togetherboss', 'balena_admin');
  provisioningKey = await createApiKey(db, fleet.actorId, { name: 'provisioning' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('a device registered', () => {
  const register = (uuid: string, deviceType = 'raspberrypi4-64') =>
    call(provisioningKey, {
      method: 'POST',
      url: '/device/register',
      payload: { application: fleet.id, uuid, device_type: deviceType },
    });
  const devices = async (uuid: string) =>
    (await db.query(`SELECT 1 FROM "device" WHERE "uuid" = $1`, [uuid])).rowCount;

  it('is not registered when its record cannot be written', async () => {
    await withAuditRefused(async () => {
      expect((await register('a'.repeat(32))).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await devices('a'.repeat(32))).toBe(0);
    expect(await records('POST /device/register')).toEqual([]);
  });

  it('is recorded once with its fleet and device; a refused registration not at all', async () => {
    expect((await register('b'.repeat(32), 'no-such-type')).statusCode).toBe(400);
    const registered = await register('c'.repeat(32));
    expect(registered.statusCode, registered.body).toBe(201);
    const { id } = registered.json<{ id: number }>();
    expect(await records('POST /device/register')).toEqual([
      {
        action: 'device_registered',
        resource: 'POST /device/register',
        organization,
        application: fleet.id,
        device: id,
        actor_user: null,
      },
    ]);
  });
});

describe('an account change', () => {
  const profile = (firstName: string) => ({
    method: 'PATCH' as const,
    url: '/user/profile',
    payload: { first_name: firstName, last_name: 'Doe', company: 'Acme', account_type: 'personal' },
  });
  const firstName = async () =>
    (
      await one<{ first_name: string | null }>(`SELECT "first_name" FROM "user" WHERE "id" = $1`, [
        member.id,
      ])
    ).first_name;

  it('is undone when its record cannot be written', async () => {
    await withAuditRefused(async () => {
      expect((await call(member.token, profile('Never'))).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await firstName()).not.toBe('Never');
    expect(await records('PATCH /user/profile')).toEqual([]);
  });

  it('is recorded once; a refused one not at all', async () => {
    expect((await call(member.token, profile(''))).statusCode).toBe(400);
    expect((await call(member.token, profile('Jane'))).statusCode).toBe(200);
    expect(await firstName()).toBe('Jane');
    expect((await records('PATCH /user/profile')).map((row) => row.actor_user)).toEqual([
      member.id,
    ]);
  });
});

describe('a platform setting', () => {
  const notice = {
    method: 'POST' as const,
    url: '/admin/v1/status/notices',
    payload: { kind: 'incident', severity: 'minor', title: 'Slow builds', message: 'Looking' },
  };
  const notices = async () =>
    (await one<{ n: number }>(`SELECT count(*)::integer AS "n" FROM "status_notice"`)).n;

  it('is not made when its record cannot be written', async () => {
    await withAuditRefused(async () => {
      expect((await call(platformAdmin.token, notice)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await notices()).toBe(0);
    expect(await records('POST /admin/v1/status/notices')).toEqual([]);
  });

  it('is recorded once; a refused one (not found, not allowed) not at all', async () => {
    const missing = { method: 'DELETE' as const, url: '/admin/v1/status/notices/999999' };
    expect((await call(platformAdmin.token, missing)).statusCode).toBe(404);
    expect((await call(admin.token, notice)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await call(platformAdmin.token, notice)).statusCode).toBe(201);
    expect(await notices()).toBe(1);
    expect((await records('POST /admin/v1/status/notices')).map((row) => row.action)).toEqual([
      'request',
    ]);
    expect(await records('DELETE /admin/v1/status/notices/:id')).toEqual([]);
  });

  it("places an organization's setting in that organization's log", async () => {
    const logo = { method: 'DELETE' as const, url: `/org/v1/organization/${organization}/logo` };
    expect((await call(admin.token, logo)).statusCode).toBe(200);
    expect(await records('DELETE /org/v1/organization/:id/logo')).toEqual([
      {
        action: 'request',
        resource: 'DELETE /org/v1/organization/:id/logo',
        organization,
        application: null,
        device: null,
        actor_user: admin.id,
      },
    ]);
  });
});

describe('a role change and a key revoked (/v7)', () => {
  const roleOf = async () =>
    (
      await one<{ name: string }>(
        `SELECT r."name" FROM "organization_membership" m
           JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
          WHERE m."user" = $1`,
        [member.id],
      )
    ).name;
  const makeAdministrator = async (token: string) => {
    const { id } = await one<{ id: number }>(
      `SELECT "id" FROM "organization_membership" WHERE "user" = $1`,
      [member.id],
    );
    const role = await one<{ id: number }>(
      `SELECT "id" FROM "organization_membership_role" WHERE "name" = 'administrator'`,
    );
    return call(token, {
      method: 'PATCH',
      url: `/v7/organization_membership(${id})`,
      payload: { organization_membership_role: role.id },
    });
  };

  it('keeps the role when the record cannot be written, and records a role change once', async () => {
    await withAuditRefused(async () => {
      expect((await makeAdministrator(admin.token)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await roleOf()).toBe('member');
    // Refused: a member may not change roles.
    expect((await makeAdministrator(member.token)).statusCode).toBeGreaterThanOrEqual(400);
    expect(await records('organization_membership')).toEqual([]);
    expect((await makeAdministrator(admin.token)).statusCode).toBe(200);
    expect(await roleOf()).toBe('administrator');
    expect((await records('organization_membership')).map((row) => row.action)).toEqual(['update']);
  });

  it('keeps a key whose revocation cannot be recorded, and records a revocation once', async () => {
    const minted = await call(admin.token, {
      method: 'POST',
      url: '/api-key/user/full',
      payload: { name: 'to revoke' },
    });
    expect(minted.statusCode).toBe(200);
    const { id } = await one<{ id: number }>(
      `SELECT "id" FROM "api_key" WHERE "name" = 'to revoke'`,
    );
    const revoke = { method: 'DELETE' as const, url: `/v7/api_key(${id})` };
    await withAuditRefused(async () => {
      expect((await call(admin.token, revoke)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect((await db.query(`SELECT 1 FROM "api_key" WHERE "id" = $1`, [id])).rowCount).toBe(1);
    expect(await records('api_key')).toEqual([]);
    expect((await call(admin.token, revoke)).statusCode).toBe(200);
    expect((await db.query(`SELECT 1 FROM "api_key" WHERE "id" = $1`, [id])).rowCount).toBe(0);
    expect((await records('api_key')).map((row) => row.action)).toEqual(['delete']);
  });
});

describe('a configuration download (its provisioning key)', () => {
  const download = (token: string) =>
    call(token, {
      method: 'POST',
      url: '/download-config',
      payload: { appId: fleet.id, provisioningKeyName: 'downloaded' },
    });
  const keys = async () =>
    (await db.query(`SELECT 1 FROM "api_key" WHERE "name" = 'downloaded'`)).rowCount;

  it('mints no key when its record cannot be written, and is recorded once', async () => {
    await withAuditRefused(async () => {
      expect((await download(admin.token)).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect(await keys()).toBe(0);
    expect(await records('POST /download-config')).toEqual([]);
    expect((await download(admin.token)).statusCode).toBe(200);
    expect(await keys()).toBe(1);
    expect((await records('POST /download-config')).map((row) => row.action)).toEqual(['request']);
  });

  it('records a GET too, since it mints a key as well, in the fleet', async () => {
    const url = `/download-config?appId=${fleet.id}&provisioningKeyName=downloaded`;
    await withAuditRefused(async () => {
      expect((await call(admin.token, { method: 'GET', url })).statusCode).toBeGreaterThanOrEqual(
        500,
      );
    });
    expect(await keys()).toBe(1);
    expect((await call(admin.token, { method: 'GET', url })).statusCode).toBe(200);
    expect(await keys()).toBe(2);
    expect(await records('GET /download-config')).toEqual([
      expect.objectContaining({ action: 'request', application: fleet.id }),
    ]);
  });
});
