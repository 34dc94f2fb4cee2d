import { fleetRoles, type FleetRole } from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// Every field behind an entry of the device Action menu, across the fleet roles, single and bulk:
// who may write it (401 otherwise, nothing written) and which values are
// valid (400 otherwise). Move and deactivate across roles are in field-change-permissions.

// Written out by hand rather than read from the table.
const mayUpdateDevices: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': true,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
// "Move targets need developer, safe-developer or operator on the target (direct or via team) or
// organization administrator."
const isMoveTarget: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': false,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
const mayMove: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': false,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
// "local mode: resin.device_config_variable.all".
const mayToggleLocalMode: Record<FleetRole, boolean> = { ...mayMove };

const shapes = ['single', 'bulk'] as const;
type Shape = (typeof shapes)[number];

describe('device Action-menu fields: permissions and valid values', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let home: fx.FleetFixture;
  let x86: fx.FleetFixture;
  let stranger: fx.FleetFixture;
  let valid: number;
  let failed: number;
  let invalidated: number;
  let otherFleetRelease: number;
  // Move targets with the caller's role on them, one fleet per role of the target.
  const targets = new Map<string, fx.FleetFixture>();

  const path = (ids: readonly number[], shape: Shape): string =>
    shape === 'single' ? `/device(${ids[0]})` : `/device?$filter=id in (${ids.join(',')})`;

  const devices = async (count: number, fleet = home): Promise<number[]> => {
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      ids.push((await fx.createDevice(db, fleet.id, `d${index}`)).id);
    }
    return ids;
  };

  const column = async (ids: readonly number[], name: string): Promise<unknown[]> => {
    const { rows } = await db.query<{ value: unknown }>(
      `SELECT "${name}" AS value FROM "device" WHERE "id" = ANY($1::integer[]) ORDER BY "id"`,
      [[...ids]],
    );
    return rows.map((row) => row.value);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    organization = await fx.createOrganization(db, 'Actions');
    home = await fx.createFleet(db, organization, 'Home');
    const amd64 = await db.query<{ slug: string }>(
      `SELECT dt."slug" FROM "device_type" dt JOIN "cpu_architecture" c ON c."id" = dt."is_of__cpu_architecture"
        WHERE c."slug" = 'amd64' ORDER BY dt."slug" LIMIT 1`,
    );
    x86 = await fx.createFleet(db, organization, 'Pcs', { deviceType: amd64.rows[0]?.slug });
    const strangers = await fx.createOrganization(db, 'Strangers');
    stranger = await fx.createFleet(db, strangers, 'Open', { isPublic: true });
    valid = await fx.createRelease(db, home.id, 'good');
    failed = await fx.createRelease(db, home.id, 'bad', { status: 'failed' });
    invalidated = await fx.createRelease(db, home.id, 'withdrawn');
    await db.query('UPDATE "release" SET "is_invalidated" = true WHERE "id" = $1', [invalidated]);
    otherFleetRelease = await fx.createRelease(db, stranger.id, 'public');
    const team = await fx.createTeam(db, organization, 'Movers');

    for (const role of fleetRoles) {
      const user = await fx.createUser(db, role);
      if (role === 'administrator') {
        await fx.addOrganizationMember(db, user.userId, organization, 'administrator');
      } else {
        await fx.addFleetMember(db, user.userId, home.id, role);
        await fx.addFleetMember(db, user.userId, x86.id, 'developer');
      }
      api.actors.set(role, userActor(user));
    }
    // An operator on Home with each role on a target of its own; through a team for developer.
    const mover = await fx.createUser(db, 'mover');
    await fx.addFleetMember(db, mover.userId, home.id, 'operator');
    await fx.addTeamMember(db, mover.userId, team);
    api.actors.set('mover', userActor(mover));
    for (const role of fleetRoles) {
      const target = await fx.createFleet(db, organization, `Target-${role}`);
      targets.set(role, target);
      if (role === 'administrator') continue;
      if (role === 'developer') await fx.grantTeamAccess(db, team, target.id, role);
      else await fx.addFleetMember(db, mover.userId, target.id, role);
    }
    // Administering the organization makes the mover administrator of Target-administrator, and
    // of every other fleet of it: a second organization keeps that one apart.
    const otherOrg = await fx.createOrganization(db, 'Elsewhere');
    const adminTarget = await fx.createFleet(db, otherOrg, 'Target-administrator');
    await fx.addOrganizationMember(db, mover.userId, otherOrg, 'administrator');
    targets.set('administrator', adminTarget);
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const cases = fleetRoles.flatMap((role) => shapes.map((shape) => [role, shape] as const));

  describe('move: resin.device.move here and a move-target role there', () => {
    it.each(cases)('with %s on the target fleet (%s)', async (role, shape) => {
      const target = targets.get(role);
      if (!target) throw new Error(role);
      const ids = await devices(shape === 'single' ? 1 : 2);
      const response = await api.send(
        'PATCH',
        path(ids, shape),
        { belongs_to__application: target.id },
        'mover',
      );
      expect(response.status, response.text).toBe(isMoveTarget[role] ? 200 : 401);
      expect(await column(ids, 'belongs_to__application')).toEqual(
        ids.map(() => (isMoveTarget[role] ? target.id : home.id)),
      );
    });

    it('refuses a fleet whose CPU architecture the device cannot run (400), for every role', async () => {
      for (const role of fleetRoles.filter((name) => mayMove[name])) {
        const ids = await devices(2);
        const response = await api.send(
          'PATCH',
          path(ids, 'bulk'),
          { belongs_to__application: x86.id },
          role,
        );
        expect(response.status, `${role}: ${response.text}`).toBe(400);
        expect(response.text).toContain('compatible cpu architecture');
        expect(await column(ids, 'belongs_to__application')).toEqual([home.id, home.id]);
      }
    });

    it('drops a pin to a release of the fleet the device leaves', async () => {
      const [id = 0] = await devices(1);
      await db.query('UPDATE "device" SET "is_pinned_on__release" = $2 WHERE "id" = $1', [
        id,
        valid,
      ]);
      const target = targets.get('developer')?.id;
      const moved = await api.send(
        'PATCH',
        `/device(${id})`,
        { belongs_to__application: target },
        'mover',
      );
      expect(moved.status, moved.text).toBe(200);
      expect(await column([id], 'is_pinned_on__release')).toEqual([null]);
    });
  });

  describe('pin to release: resin.device.update and a valid release of the same fleet', () => {
    it.each(cases)('%s pins and unpins (%s)', async (role, shape) => {
      const ids = await devices(shape === 'single' ? 1 : 2);
      const pinned = await api.send(
        'PATCH',
        path(ids, shape),
        { is_pinned_on__release: valid },
        role,
      );
      expect(pinned.status, pinned.text).toBe(mayUpdateDevices[role] ? 200 : 401);
      expect(await column(ids, 'is_pinned_on__release')).toEqual(
        ids.map(() => (mayUpdateDevices[role] ? valid : null)),
      );
      if (!mayUpdateDevices[role]) return;
      const tracking = await api.send(
        'PATCH',
        path(ids, shape),
        { is_pinned_on__release: null },
        role,
      );
      expect(tracking.status, tracking.text).toBe(200);
      expect(await column(ids, 'is_pinned_on__release')).toEqual(ids.map(() => null));
    });

    it.each([
      ['a failed release', () => failed, 'Only successful releases'],
      ['an invalidated release', () => invalidated, 'Only valid releases'],
      ['a release of another fleet', () => otherFleetRelease, 'its own fleet'],
    ])('refuses %s (400), writing nothing', async (_, release, message) => {
      const ids = await devices(2);
      const response = await api.send(
        'PATCH',
        path(ids, 'bulk'),
        { is_pinned_on__release: release(), note: 'pinned' },
        'developer',
      );
      expect(response.status, response.text).toBe(400);
      expect(response.text).toContain(message);
      expect(await column(ids, 'is_pinned_on__release')).toEqual([null, null]);
      expect(await column(ids, 'note')).toEqual([null, null]);
    });

    it('holds a device key to the same rule: its own fleet, a valid release', async () => {
      const device = await fx.createDevice(db, home.id, 'preloaded');
      api.actors.set('device', deviceActor(device, home.id));
      const foreign = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { is_pinned_on__release: otherFleetRelease },
        'device',
      );
      expect(foreign.status, foreign.text).toBe(400);
      const own = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { is_pinned_on__release: valid },
        'device',
      );
      expect(own.status, own.text).toBe(200);
      expect(await column([device.id], 'is_pinned_on__release')).toEqual([valid]);
    });
  });

  describe.each([
    ['support access', 'is_accessible_by_support_until__date', '2031-01-01T00:00:00.000Z', null],
    ['public device URL', 'is_web_accessible', true, false],
    ['custom location', 'custom_latitude', '52.52', ''],
  ] as const)('%s: resin.device.update', (_, field, on, off) => {
    it.each(cases)('%s sets and clears it (%s)', async (role, shape) => {
      const ids = await devices(shape === 'single' ? 1 : 2);
      const before = await column(ids, field);
      const set = await api.send('PATCH', path(ids, shape), { [field]: on }, role);
      expect(set.status, set.text).toBe(mayUpdateDevices[role] ? 200 : 401);
      const after = await column(ids, field);
      if (!mayUpdateDevices[role]) {
        expect(after).toEqual(before);
        return;
      }
      expect(after.every((value) => value !== null && value !== false)).toBe(true);
      const cleared = await api.send('PATCH', path(ids, shape), { [field]: off }, role);
      expect(cleared.status, cleared.text).toBe(200);
      expect(await column(ids, field)).toEqual(ids.map(() => off));
    });
  });

  describe('location values', () => {
    it.each([
      ['custom_latitude', '91'],
      ['custom_latitude', 'north'],
      ['custom_longitude', '-180.5'],
    ])('refuses %s = %s (400)', async (field, value) => {
      const ids = await devices(1);
      const response = await api.send(
        'PATCH',
        path(ids, 'single'),
        { [field]: value },
        'developer',
      );
      expect(response.status, response.text).toBe(400);
      expect(await column(ids, field)).toEqual([null]);
    });

    it('leaves the geo-determined position to the device: users get 401, its key writes it', async () => {
      const device = await fx.createDevice(db, home.id, 'gps');
      api.actors.set('gps', deviceActor(device, home.id));
      const byUser = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { latitude: '1', longitude: '2' },
        'administrator',
      );
      expect(byUser.status, byUser.text).toBe(401);
      const byDevice = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { latitude: '38.72', longitude: '-9.14' },
        'gps',
      );
      expect(byDevice.status, byDevice.text).toBe(200);
      expect(await column([device.id], 'latitude')).toEqual(['38.72']);
      // The manual location is the owners' choice, not the device's.
      const custom = await api.send(
        'PATCH',
        `/device(${device.id})`,
        { custom_latitude: '1' },
        'gps',
      );
      expect(custom.status).toBe(401);
    });
  });

  describe('local mode: resin.device_config_variable.all on an eligible device', () => {
    const eligible = async (variant: 'dev' | 'prod', supervisor = '17.0.1'): Promise<number> => {
      const [id = 0] = await devices(1);
      await db.query(
        `UPDATE "device" SET "os_version" = 'balenaOS 6.1.24', "os_variant" = $2,
                "supervisor_version" = $3 WHERE "id" = $1`,
        [id, variant, supervisor],
      );
      return id;
    };
    const enable = (device: number, as: string) =>
      api.send(
        'POST',
        '/device_config_variable',
        { device, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' },
        as,
      );

    it.each(fleetRoles)('%s on a development device', async (role) => {
      const device = await eligible('dev');
      const response = await enable(device, role);
      expect(response.status, response.text).toBe(mayToggleLocalMode[role] ? 201 : 401);
    });

    it.each([
      ['a production OS', () => eligible('prod'), 'development OS'],
      ['supervisor 3', () => eligible('dev', '3.2.1'), 'supervisor version 4'],
    ])('refuses %s with the reason (400)', async (_, make, reason) => {
      const device = await make();
      const response = await enable(device, 'developer');
      expect(response.status, response.text).toBe(400);
      expect(response.text).toContain(reason);
    });

    it('refuses turning it on by a bulk update of the variable too', async () => {
      const device = await eligible('prod');
      const created = await api.send(
        'POST',
        '/device_config_variable',
        { device, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '0' },
        'developer',
      );
      expect(created.status, created.text).toBe(201);
      const response = await api.send(
        'PATCH',
        `/device_config_variable?$filter=device eq ${device}`,
        { value: '1' },
        'developer',
      );
      expect(response.status, response.text).toBe(400);
      const { rows } = await db.query<{ value: string }>(
        'SELECT "value" FROM "device_config_variable" WHERE "device" = $1',
        [device],
      );
      expect(rows).toEqual([{ value: '0' }]);
    });
  });

  describe('support agents: read-only, and only while support access lasts', () => {
    it('see a device and its fleet until the date, nothing after, and change nothing', async () => {
      const agent = await fx.createUser(db, 'agent');
      api.actors.set('agent', userActor(agent, ['support.home']));
      const device = await fx.createDevice(db, home.id, 'supported');
      await fx.tagDevice(db, device.id, 'site', 'lab');
      const sees = async () => {
        const response = await api.get(
          `/device(${device.id})?$select=id&$expand=belongs_to__application($select=id),device_tag($select=value)`,
          'agent',
        );
        return response.body;
      };
      expect(await sees()).toEqual({ d: [] });
      await db.query(
        `UPDATE "device" SET "is_accessible_by_support_until__date" = now() + interval '1 day' WHERE "id" = $1`,
        [device.id],
      );
      expect(await sees()).toEqual({
        d: [
          {
            id: device.id,
            belongs_to__application: [{ id: home.id }],
            device_tag: [{ value: 'lab' }],
          },
        ],
      });
      const write = await api.send('PATCH', `/device(${device.id})`, { note: 'x' }, 'agent');
      expect(write.status).toBe(401);
      await db.query(
        `UPDATE "device" SET "is_accessible_by_support_until__date" = now() - interval '1 second' WHERE "id" = $1`,
        [device.id],
      );
      expect(await sees()).toEqual({ d: [] });
    });
  });
});
