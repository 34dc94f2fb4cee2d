import {
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
  ownRowPermissions,
  platformRolePermissions,
  publicPermissions,
  relatedRowReadPermissions,
  deviceKeyPermissions,
  provisioningKeyPermissions,
} from '@flotilla/shared/permissions/permissions';
import {
  deviceKeyWritableFields,
  provisioningKeyWritableFields,
} from '@flotilla/shared/permissions/field-permissions';
import type { FleetRole, OrganizationRole } from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  provisioningActor,
  userActor,
} from '../../test-support/odata-test-app.js';

// The oracle: who may do what, computed in code from the fixture's memberships and the shared
// permission tables, compared with what the engine answers (which filters in SQL).
type Caller =
  | { kind: 'user'; userId: number; admin?: boolean }
  | { kind: 'device'; deviceId: number; applicationId: number }
  | { kind: 'application'; applicationId: number }
  | { kind: 'anonymous' };

type RowFacts = {
  id: number;
  application?: number;
  organization?: number;
  user?: number;
  device?: number;
  public?: boolean;
  // Scoped by both fleet and organization (team_application_access): organization roles reach it
  // although it belongs to a fleet.
  organizationScoped?: boolean;
};

describe('row-level permissions', () => {
  let db: Database;
  let api: ODataTestApp;
  const callers = new Map<string, Caller>();
  const fleetRoles = new Map<string, FleetRole[]>(); // `${user}:${application}`
  const organizationRoles = new Map<string, OrganizationRole>(); // `${user}:${organization}`
  const facts = new Map<string, RowFacts[]>();
  const ids: Record<string, number> = {};

  const rolesOn = (
    userId: number,
    applicationId: number | undefined,
    organizationId: number | undefined,
  ): FleetRole[] => {
    const roles =
      applicationId === undefined ? [] : [...(fleetRoles.get(`${userId}:${applicationId}`) ?? [])];
    if (
      organizationId !== undefined &&
      organizationRoles.get(`${userId}:${organizationId}`) === 'administrator' &&
      applicationId !== undefined
    ) {
      roles.push('administrator');
    }
    return roles;
  };

  const expected = (caller: Caller, resource: string, action: string, row: RowFacts): boolean => {
    if (row.public && grants(publicPermissions, resource, action)) return true;
    switch (caller.kind) {
      case 'anonymous':
        return false;
      case 'device':
        if (!grants(deviceKeyPermissions, resource, action)) return false;
        return row.device !== undefined
          ? row.device === caller.deviceId
          : row.application === caller.applicationId;
      case 'application':
        return (
          grants(provisioningKeyPermissions, resource, action) &&
          row.application === caller.applicationId
        );
      case 'user': {
        if (caller.admin && grants(platformRolePermissions.balena_admin, resource, action))
          return true;
        const organizationOfRow = row.organization;
        if (
          rolesOn(caller.userId, row.application, organizationOfRow).some((role) =>
            grants(fleetRolePermissions[role], resource, action),
          )
        ) {
          return row.application !== undefined;
        }
        const organizationRole =
          organizationOfRow === undefined
            ? undefined
            : organizationRoles.get(`${caller.userId}:${organizationOfRow}`);
        if (
          organizationRole &&
          grants(organizationRolePermissions[organizationRole], resource, action) &&
          (row.application === undefined || row.organizationScoped === true)
        ) {
          return true;
        }
        if (grants(ownRowPermissions, resource, action) && row.user === caller.userId) return true;
        // A fellow member's user row: readable through a membership of theirs the caller reads.
        return (
          resource === 'user' &&
          grants(relatedRowReadPermissions, resource, action) &&
          membershipResources.some((membership) =>
            (facts.get(membership) ?? []).some(
              (fact) => fact.user === row.id && expected(caller, membership, 'read', fact),
            ),
          )
        );
      }
    }
  };
  const membershipResources = [
    'organization_membership',
    'user_application_membership',
    'team_membership',
  ];

  const expectedIds = (caller: string, resource: string, action = 'read'): number[] => {
    const who = callers.get(caller);
    if (!who) throw new Error(caller);
    return (facts.get(resource) ?? [])
      .filter((row) => expected(who, resource, action, row))
      .map((row) => row.id)
      .sort((a, b) => a - b);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const users = Object.fromEntries(
      await Promise.all(
        ['alice', 'bob', 'carol', 'dave', 'erin', 'root', 'zed'].map(
          async (name) => [name, await fx.createUser(db, name)] as const,
        ),
      ),
    );
    const u = (name: string) => {
      const user = users[name];
      if (!user) throw new Error(name);
      return user;
    };
    const orgA = await fx.createOrganization(db, 'OrgA');
    const orgB = await fx.createOrganization(db, 'OrgB');
    const member = async (user: string, organization: number, role: OrganizationRole) => {
      const id = await fx.addOrganizationMember(db, u(user).userId, organization, role);
      organizationRoles.set(`${u(user).userId}:${organization}`, role);
      return id;
    };
    const memberships = [
      { id: await member('alice', orgA, 'administrator'), user: 'alice', org: orgA },
      { id: await member('bob', orgA, 'member'), user: 'bob', org: orgA },
      { id: await member('carol', orgA, 'member'), user: 'carol', org: orgA },
      { id: await member('dave', orgB, 'administrator'), user: 'dave', org: orgB },
    ];
    const a1 = await fx.createFleet(db, orgA, 'FleetA1');
    const a2 = await fx.createFleet(db, orgA, 'FleetA2');
    const b1 = await fx.createFleet(db, orgB, 'FleetB1');
    const pub = await fx.createFleet(db, orgB, 'PublicB', { isPublic: true });
    const fleetOrg = new Map([
      [a1.id, orgA],
      [a2.id, orgA],
      [b1.id, orgB],
      [pub.id, orgB],
    ]);
    const fleetMemberships: RowFacts[] = [];
    const direct = async (user: string, fleet: number, role: FleetRole) => {
      const id = await fx.addFleetMember(db, u(user).userId, fleet, role);
      fleetMemberships.push({
        id,
        application: fleet,
        organization: fleetOrg.get(fleet),
        user: u(user).userId,
      });
      fleetRoles.set(`${u(user).userId}:${fleet}`, [
        ...(fleetRoles.get(`${u(user).userId}:${fleet}`) ?? []),
        role,
      ]);
    };
    await direct('bob', a1.id, 'observer');
    await direct('erin', a1.id, 'safe-operator');
    const team = await fx.createTeam(db, orgA, 'Builders');
    const teamB = await fx.createTeam(db, orgB, 'Others');
    const teamMembership = await fx.addTeamMember(db, u('carol').userId, team);
    const access = await fx.grantTeamAccess(db, team, a2.id, 'developer');
    fleetRoles.set(`${u('carol').userId}:${a2.id}`, ['developer']);
    facts.set('user_application_membership', fleetMemberships);
    facts.set('team', [
      { id: team, organization: orgA },
      { id: teamB, organization: orgB },
    ]);
    facts.set('team_membership', [
      { id: teamMembership, organization: orgA, user: u('carol').userId },
    ]);
    facts.set('team_application_access', [
      { id: access, application: a2.id, organization: orgA, organizationScoped: true },
    ]);

    const deviceRows: RowFacts[] = [];
    const tagRows: RowFacts[] = [];
    const devicesByFleet: [fx.FleetFixture, string][] = [
      [a1, 'a1-one'],
      [a1, 'a1-two'],
      [a2, 'a2-one'],
      [b1, 'b1-one'],
      [pub, 'pub-one'],
    ];
    let firstDevice: fx.DeviceFixture | undefined;
    for (const [fleet, name] of devicesByFleet) {
      const device = await fx.createDevice(db, fleet.id, name);
      firstDevice ??= device;
      ids[name] = device.id;
      deviceRows.push({
        id: device.id,
        application: fleet.id,
        organization: fleetOrg.get(fleet.id),
        device: device.id,
      });
      const tag = await fx.tagDevice(db, device.id, 'k', name);
      tagRows.push({
        id: tag,
        application: fleet.id,
        organization: fleetOrg.get(fleet.id),
        device: device.id,
      });
    }
    const fleetRows = [a1, a2, b1, pub].map((fleet): RowFacts => ({
      id: fleet.id,
      application: fleet.id,
      organization: fleetOrg.get(fleet.id),
      public: fleet.id === pub.id,
    }));
    const varRows: RowFacts[] = [];
    for (const fleet of [a1, a2, b1, pub]) {
      varRows.push({
        id: await fx.setFleetEnvVar(db, fleet.id, 'VAR', 'x'),
        application: fleet.id,
        organization: fleetOrg.get(fleet.id),
      });
    }
    ids.a1 = a1.id;
    ids.a2 = a2.id;
    ids.b1 = b1.id;
    facts.set('application', fleetRows);
    facts.set('device', deviceRows);
    facts.set('device_tag', tagRows);
    facts.set('application_environment_variable', varRows);
    facts.set(
      'organization',
      [orgA, orgB].map((id) => ({ id, organization: id })),
    );
    facts.set(
      'organization_membership',
      memberships.map((m) => ({ id: m.id, organization: m.org, user: u(m.user).userId })),
    );
    facts.set(
      'user',
      Object.values(users).map((user) => ({ id: user.userId, user: user.userId })),
    );

    // Provisioning keys (the fleet's actor), device keys (the device's actor) and named user keys.
    const keyOf = async (actorId: number): Promise<number> => {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix")
         VALUES ($1, md5(random()::text), 'matrix') RETURNING "id"`,
        [actorId],
      );
      return rows[0]?.id ?? 0;
    };
    const keyRows: RowFacts[] = [];
    for (const fleet of [a1, a2, b1, pub]) {
      const organization = fleetOrg.get(fleet.id);
      keyRows.push({ id: await keyOf(fleet.actorId), application: fleet.id, organization });
    }
    for (const row of deviceRows) {
      const { rows } = await db.query<{ actor: number }>(
        'SELECT "actor" FROM "device" WHERE "id" = $1',
        [row.id],
      );
      keyRows.push({
        id: await keyOf(rows[0]?.actor ?? 0),
        application: row.application,
        organization: row.organization,
      });
    }
    for (const name of ['alice', 'erin', 'zed']) {
      keyRows.push({ id: await keyOf(u(name).actorId), user: u(name).userId });
    }
    facts.set('api_key', keyRows);

    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'zed']) {
      api.actors.set(name, userActor(u(name)));
      callers.set(name, { kind: 'user', userId: u(name).userId });
    }
    api.actors.set('root', userActor(u('root'), ['admin.home']));
    callers.set('root', { kind: 'user', userId: u('root').userId, admin: true });
    if (!firstDevice) throw new Error('no device');
    api.actors.set('device', deviceActor(firstDevice, a1.id));
    callers.set('device', { kind: 'device', deviceId: firstDevice.id, applicationId: a1.id });
    api.actors.set('provisioning', provisioningActor(a2));
    callers.set('provisioning', { kind: 'application', applicationId: a2.id });
    callers.set('anonymous', { kind: 'anonymous' });
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const allCallers = [
    'alice',
    'bob',
    'carol',
    'dave',
    'erin',
    'root',
    'zed',
    'device',
    'provisioning',
    'anonymous',
  ];
  const resources = [
    'application',
    'device',
    'device_tag',
    'application_environment_variable',
    'organization',
    'organization_membership',
    'user_application_membership',
    'team',
    'team_membership',
    'team_application_access',
    'user',
    'api_key',
  ];
  const as = (caller: string): string | undefined => (caller === 'anonymous' ? undefined : caller);
  const idsOf = (body: unknown): number[] =>
    ((body as { d: { id: number }[] }).d ?? []).map((row) => row.id).sort((a, b) => a - b);

  it.each(allCallers.flatMap((caller) => resources.map((resource) => [caller, resource] as const)))(
    '%s reads exactly the permitted %s rows, and counts them',
    async (caller, resource) => {
      const want = expectedIds(caller, resource);
      const response = await api.get(`/${resource}?$select=id`, as(caller));
      if (want.length === 0 && response.status === 401) return; // holds the action on no row at all
      expect(response.status, response.text).toBe(200);
      expect(idsOf(response.body)).toEqual(want);
      const count = await api.get(`/${resource}/$count`, as(caller));
      expect(count.body).toEqual({ d: want.length });
    },
  );

  it.each(allCallers)(
    '%s sees through $expand, lambdas and nested counts only what it may read',
    async (caller) => {
      const visibleDevices = expectedIds(caller, 'device');
      const visibleFleets = expectedIds(caller, 'application');
      const expanded = await api.get(
        '/application?$select=id&$expand=owns__device($select=id)',
        as(caller),
      );
      if (visibleFleets.length === 0 && expanded.status === 401) return;
      expect(expanded.status, expanded.text).toBe(200);
      for (const fleet of (expanded.body as { d: { id: number; owns__device: { id: number }[] }[] })
        .d) {
        for (const device of fleet.owns__device) expect(visibleDevices).toContain(device.id);
      }
      const counted = await api.get(
        '/application?$select=id&$expand=owns__device/$count',
        as(caller),
      );
      const seen = (counted.body as { d: { owns__device: number }[] }).d.reduce(
        (sum, fleet) => sum + fleet.owns__device,
        0,
      );
      expect(seen).toBe(visibleDevices.length);
      // A device the caller cannot read must not reveal its fleet through a lambda.
      const hidden = ['a1-one', 'a2-one', 'b1-one']
        .map((name) => ids[name] ?? 0)
        .filter((id) => !visibleDevices.includes(id));
      for (const id of hidden) {
        const probe = await api.get(
          `/application?$select=id&$filter=owns__device/any(d:d/id eq ${id})`,
          as(caller),
        );
        expect(probe.status === 401 || idsOf(probe.body).length === 0, probe.text).toBe(true);
        const counted = await api.get(
          `/application/$count?$filter=owns__device/$count($filter=id eq ${id}) gt 0`,
          as(caller),
        );
        expect(counted.status === 401 || (counted.body as { d: number }).d === 0).toBe(true);
      }
    },
  );

  it.each(allCallers)(
    '%s bulk-patches only rows it may update, or nothing at all',
    async (caller) => {
      const before = (
        await db.query<{ id: number; note: string | null }>(
          'SELECT "id", "note" FROM "device" ORDER BY "id"',
        )
      ).rows;
      const readable = expectedIds(caller, 'device');
      const updatable = expectedIds(caller, 'device', 'update');
      const response = await api.send(
        'PATCH',
        `/device?$filter=id ne 0`,
        { note: `by ${caller}` },
        as(caller),
      );
      const after = (
        await db.query<{ id: number; note: string | null }>(
          'SELECT "id", "note" FROM "device" ORDER BY "id"',
        )
      ).rows;
      const changed = after
        .filter((row, index) => row.note !== before[index]?.note)
        .map((row) => row.id);
      const who = callers.get(caller);
      const keyMayWriteNote =
        who?.kind === 'device'
          ? (deviceKeyWritableFields.device?.update ?? []).includes('note')
          : who?.kind === 'application'
            ? (provisioningKeyWritableFields.device?.update ?? []).includes('note')
            : true;
      if (readable.some((id) => !updatable.includes(id)) || !keyMayWriteNote) {
        expect(response.status, response.text).toBe(401);
        expect(changed).toEqual([]);
      } else if (updatable.length === 0) {
        // Nothing to touch: a no-op, or a 401 when the caller holds the action on no row at all.
        expect([200, 401]).toContain(response.status);
        expect(changed).toEqual([]);
      } else {
        expect(response.status, response.text).toBe(200);
        expect(changed.sort((a, b) => a - b)).toEqual(updatable);
      }
    },
  );

  it.each(allCallers)(
    '%s bulk-deletes only tags it may delete, or nothing at all',
    async (caller) => {
      const before = (
        await db.query<{ id: number }>('SELECT "id" FROM "device_tag" ORDER BY "id"')
      ).rows.map((row) => row.id);
      const readable = expectedIds(caller, 'device_tag').filter((id) => before.includes(id));
      const deletable = expectedIds(caller, 'device_tag', 'delete').filter((id) =>
        before.includes(id),
      );
      const response = await api.send(
        'DELETE',
        `/device_tag?$filter=tag_key eq 'k'`,
        undefined,
        as(caller),
      );
      const after = (
        await db.query<{ id: number }>('SELECT "id" FROM "device_tag" ORDER BY "id"')
      ).rows.map((row) => row.id);
      const removed = before.filter((id) => !after.includes(id));
      if (readable.some((id) => !deletable.includes(id))) {
        expect(response.status, response.text).toBe(401);
        expect(removed).toEqual([]);
      } else if (deletable.length === 0) {
        expect([200, 401]).toContain(response.status);
        expect(removed).toEqual([]);
      } else {
        expect(response.status, response.text).toBe(200);
        expect(removed).toEqual(deletable);
      }
    },
  );

  it('refuses writes whose foreign key points at a row the caller cannot see', async () => {
    const attempts: [string, string, Record<string, unknown>][] = [
      ['bob', 'device_tag', { device: ids['b1-one'], tag_key: 'x', value: 'y' }],
      ['carol', 'application_environment_variable', { application: ids.a1, name: 'X', value: 'y' }],
      ['erin', 'device_tag', { device: ids['a2-one'], tag_key: 'x', value: 'y' }],
      ['device', 'device_tag', { device: ids['a1-two'], tag_key: 'x', value: 'y' }],
      ['zed', 'application', { app_name: 'Sneaky', organization: ids.a1, is_for__device_type: 1 }],
    ];
    for (const [caller, resource, body] of attempts) {
      const response = await api.send('POST', `/${resource}`, body, caller);
      expect(response.status, `${caller} POST ${resource}: ${response.text}`).toBe(401);
    }
    const allowed = await api.send(
      'POST',
      '/device_tag',
      { device: ids['a1-one'], tag_key: 'ok', value: 'y' },
      'erin',
    );
    expect(allowed.status, allowed.text).toBe(201);
    const moved = await api.send(
      'PATCH',
      `/device(${ids['a2-one']})`,
      { belongs_to__application: ids.b1 },
      'carol',
    );
    expect(moved.status).toBe(401);
    const still = await db.query<{ app: number }>(
      'SELECT "belongs_to__application" AS app FROM "device" WHERE "id" = $1',
      [ids['a2-one'] ?? 0],
    );
    expect(still.rows[0]?.app).toBe(ids.a2);
  });
});
