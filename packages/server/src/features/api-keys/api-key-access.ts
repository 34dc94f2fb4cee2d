import { fleetRolePermissions, grants } from '@flotilla/shared/permissions/permissions';
import { type FleetRole, fleetRoles } from '@flotilla/shared/permissions/roles';
import type { Actor } from '../../infra/auth/actor.js';
import { hashApiKey } from '../../infra/auth/api-key-tokens.js';
import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { type ApiKeyDetails, registerGivenApiKey } from './store-api-key.js';

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
  requireUserSessionMay(actor, 'manage-api-keys');
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

// The device's actor, once the caller may mint keys for it: a user allowed to update the fleet's
// devices. Neither a provisioning key (it would impersonate any device of its fleet) nor a device
// key (the shared table gives device keys no api_key permission) mints device keys; a
// provisioning key only completes balena-supervisor's key exchange (exchangeDeviceKey).
export const deviceKeyTarget = async (
  db: Queryable,
  actor: Actor,
  deviceId: number,
): Promise<number> => {
  requireUserSessionMay(actor, 'manage-api-keys');
  const { rows } = await db.query<{ actor: number; belongs_to__application: number }>(
    'SELECT "actor", "belongs_to__application" FROM "device" WHERE "id" = $1',
    [deviceId],
  );
  const device = rows[0];
  const allowed =
    device !== undefined &&
    actor.kind === 'user' &&
    (await userMayOnFleet(db, actor.userId, device.belongs_to__application, 'device', 'update'));
  if (!device || !allowed) {
    throw forbidden('You do not have the required permission to create keys for this device');
  }
  return device.actor;
};

type ExchangeRow = { actor: number; belongs_to__application: number };

// balena-supervisor's key exchange (wire contract section 7.3): when POST /device/register answers
// 409 for its uuid and its own key does not work, it registers that key with POST
// /api-key/device/:id/device-key {apiKey}, authenticated by the provisioning key. That is needed
// only for a device of the key's fleet that has no key yet (created without one); a device that
// has a key would be taken over, so that is a 401. Registering the key the device already has
// succeeds again (a retried exchange). Run in a transaction (the route's, with its record).
export const exchangeDeviceKey = async (
  tx: Queryable,
  provisioningKey: Extract<Actor, { kind: 'application' }>,
  deviceId: number,
  apiKey: string,
  details: ApiKeyDetails,
): Promise<void> => {
  // Locked first, keys read by a later statement: two exchanges for one device run one after
  // the other, and the second sees the key the first registered.
  const { rows } = await tx.query<ExchangeRow>(
    'SELECT "actor", "belongs_to__application" FROM "device" WHERE "id" = $1 FOR UPDATE',
    [deviceId],
  );
  const device = rows[0];
  if (!device || device.belongs_to__application !== provisioningKey.applicationId) {
    throw forbidden('You do not have the required permission to create keys for this device');
  }
  const keys = await tx.query<{ key_hash: string }>(
    'SELECT "key_hash" FROM "api_key" WHERE "is_of__actor" = $1',
    [device.actor],
  );
  if (keys.rows.some((key) => key.key_hash === hashApiKey(apiKey))) return;
  if (keys.rows.length > 0) {
    throw forbidden('This device already has a key; a provisioning key cannot add another');
  }
  await registerGivenApiKey(tx, device.actor, apiKey, details);
};
