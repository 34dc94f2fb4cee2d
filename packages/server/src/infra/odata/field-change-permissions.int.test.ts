import type { FleetRole } from '@flotilla/shared/permissions/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../db/database.js';

// Field-level action permissions (shared field-permissions table): changing a device's fleet needs
// resin.device.move, changing its active flag resin.application.deactivate-device on its fleet,
// besides resin.device.update. Single and bulk writes alike; a row the caller sees but may not
// change makes the whole request a 401 and nothing is written.

// Which fleet roles may move and deactivate devices, written out rather than read from the table.
const mayMoveAndDeactivate: Record<FleetRole, boolean> = {
  observer: false,
  'safe-operator': false,
  operator: true,
  'safe-developer': true,
  developer: true,
  administrator: true,
};
const roles = Object.keys(mayMoveAndDeactivate) as FleetRole[];

type DeviceState = { app: number; active: boolean; note: string | null };

describe('field-level action permissions on device writes', () => {
  let db: Database;
  let api: ODataTestApp;
  let organization: number;
  let home: fx.FleetFixture;
  let target: fx.FleetFixture;

  const stateOf = async (ids: readonly number[]): Promise<DeviceState[]> => {
    const { rows } = await db.query<DeviceState>(
      `SELECT "belongs_to__application" AS app, "is_active" AS active, "note"
         FROM "device" WHERE "id" = ANY($1::integer[]) ORDER BY "id"`,
      [[...ids]],
    );
    return rows;
  };

  const devicesIn = async (fleet: fx.FleetFixture, count: number): Promise<number[]> => {
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      ids.push((await fx.createDevice(db, fleet.id, `d${index}`)).id);
    }
    return ids;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    organization = await fx.createOrganization(db, 'Fields');
    home = await fx.createFleet(db, organization, 'Home');
    target = await fx.createFleet(db, organization, 'Target');
    for (const role of roles) {
      const user = await fx.createUser(db, role);
      if (role === 'administrator') {
        await fx.addOrganizationMember(db, user.userId, organization, 'administrator');
      } else {
        await fx.addFleetMember(db, user.userId, home.id, role);
        // Developer on the target, so only the home role decides whether a move may start.
        await fx.addFleetMember(db, user.userId, target.id, 'developer');
      }
      api.actors.set(role, userActor(user));
    }
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  const cases = roles.flatMap((role) =>
    (['single', 'bulk'] as const).map((shape) => [role, shape] as const),
  );

  it.each(cases)('%s: moving devices (%s)', async (role, shape) => {
    const ids = await devicesIn(home, shape === 'single' ? 1 : 2);
    const path =
      shape === 'single' ? `/device(${ids[0]})` : `/device?$filter=id in (${ids.join(',')})`;
    const response = await api.send('PATCH', path, { belongs_to__application: target.id }, role);
    const after = await stateOf(ids);
    if (mayMoveAndDeactivate[role]) {
      expect(response.status, response.text).toBe(200);
      expect(after.map((row) => row.app)).toEqual(ids.map(() => target.id));
    } else {
      expect(response.status, response.text).toBe(401);
      expect(after.map((row) => row.app)).toEqual(ids.map(() => home.id));
    }
  });

  it.each(cases)('%s: deactivating devices (%s)', async (role, shape) => {
    const ids = await devicesIn(home, shape === 'single' ? 1 : 2);
    const path =
      shape === 'single' ? `/device(${ids[0]})` : `/device?$filter=id in (${ids.join(',')})`;
    const response = await api.send('PATCH', path, { is_active: false, note: 'off' }, role);
    const after = await stateOf(ids);
    if (mayMoveAndDeactivate[role]) {
      expect(response.status, response.text).toBe(200);
      expect(after).toEqual(ids.map(() => ({ app: home.id, active: false, note: 'off' })));
    } else {
      // Nothing of the write happens, not even the fields the role may change.
      expect(response.status, response.text).toBe(401);
      expect(after).toEqual(ids.map(() => ({ app: home.id, active: true, note: null })));
    }
  });

  it.each(roles.filter((role) => role !== 'observer'))(
    '%s may send a device its current fleet and active flag (no change, no extra permission)',
    async (role) => {
      const ids = await devicesIn(home, 2);
      const response = await api.send(
        'PATCH',
        `/device?$filter=id in (${ids.join(',')})`,
        { belongs_to__application: home.id, is_active: true, note: 'same' },
        role,
      );
      expect(response.status, response.text).toBe(200);
      expect(await stateOf(ids)).toEqual(
        ids.map(() => ({ app: home.id, active: true, note: 'same' })),
      );
    },
  );

  it('judges a bulk write row by row: one row the caller may not change refuses it all', async () => {
    // Operator on Home, safe-operator on Target: moves out of Target are not theirs to make.
    const user = await fx.createUser(db, 'mixed');
    await fx.addFleetMember(db, user.userId, home.id, 'operator');
    await fx.addFleetMember(db, user.userId, target.id, 'safe-operator');
    api.actors.set('mixed', userActor(user));
    const third = await fx.createFleet(db, organization, 'Third');
    await fx.addFleetMember(db, user.userId, third.id, 'operator');
    const [fromHome = 0] = await devicesIn(home, 1);
    const [fromTarget = 0] = await devicesIn(target, 1);
    const both = `/device?$filter=id in (${fromHome},${fromTarget})`;

    const moved = await api.send('PATCH', both, { belongs_to__application: third.id }, 'mixed');
    expect(moved.status, moved.text).toBe(401);
    expect((await stateOf([fromHome, fromTarget])).map((row) => row.app)).toEqual([
      home.id,
      target.id,
    ]);

    // Deactivating: the Target device is already inactive, so only the Home row changes.
    await db.query('UPDATE "device" SET "is_active" = false WHERE "id" = $1', [fromTarget]);
    const deactivated = await api.send('PATCH', both, { is_active: false }, 'mixed');
    expect(deactivated.status, deactivated.text).toBe(200);
    expect((await stateOf([fromHome, fromTarget])).map((row) => row.active)).toEqual([
      false,
      false,
    ]);
    const reactivated = await api.send('PATCH', both, { is_active: true }, 'mixed');
    expect(reactivated.status, reactivated.text).toBe(401);
    expect((await stateOf([fromHome, fromTarget])).map((row) => row.active)).toEqual([
      false,
      false,
    ]);
  });

  it('still needs the right to update devices in the fleet a device moves to', async () => {
    const user = await fx.createUser(db, 'one-fleet');
    await fx.addFleetMember(db, user.userId, home.id, 'operator');
    await fx.addFleetMember(db, user.userId, target.id, 'observer');
    api.actors.set('one-fleet', userActor(user));
    const [id = 0] = await devicesIn(home, 1);
    const response = await api.send(
      'PATCH',
      `/device(${id})`,
      { belongs_to__application: target.id },
      'one-fleet',
    );
    expect(response.status).toBe(401);
    expect((await stateOf([id]))[0]?.app).toBe(home.id);
  });
});
