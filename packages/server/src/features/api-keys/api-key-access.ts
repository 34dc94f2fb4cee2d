import { fleetRolePermissions, grants } from '@flotilla/shared/permissions/permissions';
import { type FleetRole, fleetRoles } from '@flotilla/shared/permissions/roles';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden } from '../../infra/errors/api-error.js';

const isFleetRole = (role: string): role is FleetRole => fleetRoles.some((known) => known === role);

// Whether a user's roles on a fleet (organization, direct membership, teams: the fleet_access
// view) grant `action` on `resource` according to the shared permission table.
export const userMayOnFleet = async (
  db: Queryable,
  userId: number,
  applicationId: number,
  resource: string,
  action: string,
): Promise<boolean> => {
  const { rows } = await db.query<{ role: string }>(
    'SELECT DISTINCT "role" FROM "fleet_access" WHERE "user" = $1 AND "application" = $2',
    [userId, applicationId],
  );
  return rows.some(
    (row) => isFleetRole(row.role) && grants(fleetRolePermissions[row.role], resource, action),
  );
};

// The fleet's own actor, once the caller may create provisioning keys on it. Unknown fleets and
// fleets the caller may not manage look the same: 401.
export const provisioningTarget = async (
  db: Queryable,
  actor: Actor,
  applicationId: number,
): Promise<number> => {
  if (
    actor.kind !== 'user' ||
    !(await userMayOnFleet(db, actor.userId, applicationId, 'api_key', 'create'))
  ) {
    throw forbidden('You do not have the required permission to create provisioning keys');
  }
  const { rows } = await db.query<{ actor: number }>(
    'SELECT "actor" FROM "application" WHERE "id" = $1',
    [applicationId],
  );
  const fleetActor = rows[0]?.actor;
  if (fleetActor === undefined) throw forbidden();
  return fleetActor;
};

// The device's actor, once the caller may mint keys for it: a user allowed to update the
// fleet's devices, a provisioning key of the device's fleet, or the device's own key.
export const deviceKeyTarget = async (
  db: Queryable,
  actor: Actor,
  deviceId: number,
): Promise<number> => {
  const { rows } = await db.query<{ actor: number; belongs_to__application: number }>(
    'SELECT "actor", "belongs_to__application" FROM "device" WHERE "id" = $1',
    [deviceId],
  );
  const device = rows[0];
  const allowed =
    device !== undefined &&
    ((actor.kind === 'user' &&
      (await userMayOnFleet(
        db,
        actor.userId,
        device.belongs_to__application,
        'device',
        'update',
      ))) ||
      (actor.kind === 'application' && actor.applicationId === device.belongs_to__application) ||
      (actor.kind === 'device' && actor.deviceId === deviceId));
  if (!device || !allowed) {
    throw forbidden('You do not have the required permission to create keys for this device');
  }
  return device.actor;
};
