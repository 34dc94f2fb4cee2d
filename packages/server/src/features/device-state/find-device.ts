import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';
import type { Model, Resource } from '../../model/model-types.js';

export type DeviceRef = { id: number; uuid: string; applicationId: number };

export const deviceResource = (model: Model): Resource => {
  const resource = model.resources.get('device');
  if (!resource) throw new Error('The model has no device resource');
  return resource;
};

// The device with this uuid, if the actor holds `action` on it under the same row-level rules as
// /v7 (a device key reaches only itself; users through their fleet roles). An unknown device and
// one the actor may not touch both answer 401, as the API does for rows it does not show, so the
// answer never reveals whether a uuid exists. `resource` lets a caller check a permission named
// for another resource that is granted on the device's row (device_log.delete).
export const findPermittedDevice = async (
  db: Queryable,
  actor: Actor,
  uuid: string,
  check: { resource: Resource; action: string },
): Promise<DeviceRef> => {
  const params = createSqlParams(actor);
  const uuidParam = params.add(uuid);
  const permitted = createPermissionFilter(params)(check.resource, check.action, '"d"');
  if (permitted === null) throw forbidden();
  const { rows } = await db.query<DeviceRef>(
    `SELECT d."id", d."uuid", d."belongs_to__application" AS "applicationId"
       FROM "device" d WHERE d."uuid" = ${uuidParam} AND ${permitted}`,
    params.values(),
  );
  const device = rows[0];
  if (!device) throw forbidden();
  return device;
};
