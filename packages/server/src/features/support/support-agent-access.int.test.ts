import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

const rows = z.object({ d: z.array(z.object({ id: z.number() })) });

// Support agents see a device, a fleet or an organization (with its members and identity-provider
// memberships) only while its members grant support access, until the date granted; without a
// grant they get nothing, and they never write. Platform administrators are not bound by it.
describe('support agents under support access', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let other: number;
  let fleet: fx.FleetFixture;
  let device: number;

  const ids = async (path: string, who = 'agent'): Promise<number[]> => {
    const response = await api.get(path, who);
    expect(response.status).toBe(200);
    return rows
      .parse(response.body)
      .d.map((row) => row.id)
      .toSorted((a, b) => a - b);
  };

  const grant = async (table: 'application' | 'device', id: number, interval: string | null) => {
    await db.query(
      `UPDATE "${table}" SET "is_accessible_by_support_until__date" = ${interval === null ? 'NULL' : `now() + interval '${interval}'`} WHERE "id" = $1`,
      [id],
    );
  };

  const seen = async () => ({
    organizations: await ids('/organization?$select=id'),
    members: (await ids('/organization_membership?$select=id')).length,
    providers: (await ids('/identity_provider_membership?$select=id')).length,
    fleets: await ids('/application?$select=id'),
    devices: await ids('/device?$select=id'),
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    organization = await fx.createOrganization(db, 'Supported');
    other = await fx.createOrganization(db, 'Private');
    fleet = await fx.createFleet(db, organization, 'Lab');
    await fx.createFleet(db, other, 'Secret');
    device = (await fx.createDevice(db, fleet.id, 'probe')).id;
    const owner = await fx.createUser(db, 'owner');
    await fx.addOrganizationMember(db, owner.userId, organization, 'administrator');
    const provider = await db.query<{ id: number }>(
      `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
       VALUES ('lab-sso', 'https://idp.example/sso', 'https://idp.example', 'MIIC') RETURNING "id"`,
    );
    for (const each of [organization, other]) {
      await db.query(
        `INSERT INTO "identity_provider_membership" ("organization", "is_authorized_by__identity_provider") VALUES ($1, $2)`,
        [each, provider.rows[0]?.id ?? null],
      );
    }
    const agent = await fx.createUser(db, 'agent');
    api.actors.set('agent', userActor(agent, ['support.home']));
    const admin = await fx.createUser(db, 'admin');
    api.actors.set('admin', userActor(admin, ['admin.home']));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('gets nothing without a grant', async () => {
    expect(await seen()).toEqual({
      organizations: [],
      members: 0,
      providers: 0,
      fleets: [],
      devices: [],
    });
  });

  it("sees a granted fleet, its devices and its organization, none of another's, until the date", async () => {
    await grant('application', fleet.id, '1 day');
    expect(await seen()).toEqual({
      organizations: [organization],
      members: 1,
      providers: 1,
      fleets: [fleet.id],
      devices: [device],
    });
    await grant('application', fleet.id, '-1 second');
    expect(await seen()).toEqual({
      organizations: [],
      members: 0,
      providers: 0,
      fleets: [],
      devices: [],
    });
  });

  it('reaches the organization through a granted device too, and loses it on revoke', async () => {
    await grant('device', device, '1 hour');
    expect((await seen()).organizations).toEqual([organization]);
    await grant('device', device, null);
    expect((await seen()).organizations).toEqual([]);
  });

  it('never writes the rows it reads, even under a grant', async () => {
    await grant('application', fleet.id, '1 day');
    const rename = await api.send(
      'PATCH',
      `/organization(${organization})`,
      { name: 'Renamed' },
      'agent',
    );
    expect(rename.status).toBe(401);
    const first = (await ids('/identity_provider_membership?$select=id'))[0];
    expect(first).toBeDefined();
    const removal = await api.send(
      'DELETE',
      `/identity_provider_membership(${first})`,
      undefined,
      'agent',
    );
    expect(removal.status).toBe(401);
    const { rows } = await db.query<{ name: string }>(
      'SELECT "name" FROM "organization" WHERE "id" = $1',
      [organization],
    );
    expect(rows[0]?.name).toBe('Supported');
    await grant('application', fleet.id, null);
  });

  it('leaves platform administrators unbound by support access', async () => {
    expect((await ids('/organization?$select=id', 'admin')).length).toBeGreaterThanOrEqual(2);
  });
});
