import type { Actor } from '../../infra/auth/actor.js';
import type { Model } from '../../model/model-types.js';
import type { Queryable } from '../../infra/db/database.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

// The id of the fleet with this uuid, if the actor may read it under the /v7 rules (members,
// public fleets, a device key its own fleet); otherwise 401, as for devices (find-device.ts).
export const findReadableFleet = async (
  db: Queryable,
  model: Model,
  actor: Actor,
  uuid: string,
): Promise<number> => {
  const resource = model.resources.get('application');
  if (!resource) throw new Error('The model has no application resource');
  const params = createSqlParams(actor);
  const uuidParam = params.add(uuid);
  const readable = createPermissionFilter(params)(resource, 'read', '"a"');
  if (readable === null) throw forbidden();
  const { rows } = await db.query<{ id: number }>(
    `SELECT a."id" FROM "application" a WHERE a."uuid" = ${uuidParam} AND ${readable}`,
    params.values(),
  );
  const fleet = rows[0];
  if (!fleet) throw forbidden();
  return fleet.id;
};
