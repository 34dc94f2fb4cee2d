import {
  fleetRolePermissions,
  grants,
  organizationRolePermissions,
  ownRowPermissions,
  platformRolePermissions,
  publicPermissions,
  relatedRowReadPermissions,
  signedInPermissions,
  deviceKeyPermissions,
  provisioningKeyPermissions,
} from '@flotilla/shared/permissions/permissions';
import type { FleetRole, OrganizationRole } from '@flotilla/shared/permissions/roles';
import type { Database } from '../infra/db/database.js';
import * as fx from './fixtures.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  provisioningActor,
  userActor,
} from './odata-test-app.js';
import { createTestDatabase } from './test-database.js';

// The world of the permission matrix tests (infra/odata/permission-matrix-*.int.test.ts): two
// organizations, their fleets, devices, memberships, teams and keys, and callers of every kind.
// The oracle: who may do what, computed in code from the fixture's memberships and the shared
// permission tables, compared with what the engine answers (which filters in SQL).
export type Caller =
  | { kind: 'user'; userId: number; admin?: boolean }
  | { kind: 'device'; deviceId: number; applicationId: number }
  | { kind: 'application'; applicationId: number }
  | { kind: 'anonymous' };

export type RowFacts = {
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

export type PermissionWorld = {
  db: Database;
  api: ODataTestApp;
  callers: ReadonlyMap<string, Caller>;
  // Row ids by fixture name (devices by name; fleets a1, a2, b1).
  ids: Readonly<Record<string, number>>;
  // What the oracle says the caller may do with the resource's rows: their ids, ascending.
  expectedIds(caller: string, resource: string, action?: string): number[];
  close(): Promise<void>;
};

export const allCallers = [
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
export const matrixResources = [
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
  'oauth_application',
  'oauth_application_authorization',
];

export const createPermissionWorld = async (): Promise<PermissionWorld> => {
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
        if (grants(signedInPermissions, resource, action)) return true;
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

  const db = await createTestDatabase();
  const api = createODataTestApp(db);
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

  // OAuth applications (every signed-in user reads them) and authorizations of alice and zed.
  const oauthApplication = async (name: string): Promise<number> => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "oauth_application" ("client_id", "name", "redirect_uri")
       VALUES ($1, $1, 'https://app.test/') RETURNING "id"`,
      [name],
    );
    return rows[0]?.id ?? 0;
  };
  const grafana = await oauthApplication('grafana');
  const wiki = await oauthApplication('wiki');
  facts.set('oauth_application', [{ id: grafana }, { id: wiki }]);
  const authorizationRows: RowFacts[] = [];
  for (const [name, application] of [
    ['alice', grafana],
    ['alice', wiki],
    ['zed', grafana],
  ] as const) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "oauth_application_authorization" ("belongs_to__user", "is_for__oauth_application")
       VALUES ($1, $2) RETURNING "id"`,
      [u(name).userId, application],
    );
    authorizationRows.push({ id: rows[0]?.id ?? 0, user: u(name).userId });
  }
  facts.set('oauth_application_authorization', authorizationRows);

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
  return {
    db,
    api,
    callers,
    ids,
    expectedIds,
    close: async () => {
      await api.app.close();
      await db.close();
    },
  };
};
