import type { DeviceAction } from '@flotilla/shared/cloudlink/messages';
import {
  cloudlinkActionPermissions,
  type HostUpdateActionId,
} from '@flotilla/shared/devices/device-action-permissions';
import { isQueueable, queuedActionPermission } from '@flotilla/shared/devices/queued-actions';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

export type ActionTarget = { id: number; uuid: string };

export type TargetFilter = {
  deviceId?: number;
  deviceIds?: readonly number[];
  uuid?: string;
  appId?: number;
};

// The devices matching `filter` that the actor may run `action` on (the permission comes from
// shared/devices/device-action-permissions.ts, which the console's rules read too). As for writes
// through /v7, a matching device the actor can see but may not act on makes the whole call a 401,
// and so does holding the permission on no device at all; devices the actor cannot see are simply
// not there.
export const permittedTargets = async (
  ctx: AppContext,
  actor: Actor,
  filter: TargetFilter,
  action: DeviceAction | HostUpdateActionId,
): Promise<ActionTarget[]> => {
  const params = createSqlParams(actor);
  const permission = createPermissionFilter(params);
  const device = resourceOf(ctx.model, 'device');
  const row = '"d"';
  const needed = isQueueable(action)
    ? queuedActionPermission(action)
    : cloudlinkActionPermissions[action];
  const permitted = permission(device, needed.action, row);
  if (permitted === null) throw forbidden();
  const visible = permission(device, 'read', row) ?? 'false';
  const conditions: string[] = [];
  if (filter.deviceId !== undefined) {
    conditions.push(`${row}."id" = ${params.add(filter.deviceId)}::integer`);
  }
  if (filter.deviceIds !== undefined) {
    conditions.push(`${row}."id" = ANY(${params.add(filter.deviceIds)}::integer[])`);
  }
  if (filter.uuid !== undefined) conditions.push(`${row}."uuid" = ${params.add(filter.uuid)}`);
  if (filter.appId !== undefined) {
    conditions.push(`${row}."belongs_to__application" = ${params.add(filter.appId)}::integer`);
  }
  if (conditions.length === 0) throw new Error('permittedTargets needs a filter');
  const { rows } = await ctx.db.query<ActionTarget & { permitted: boolean }>(
    `SELECT ${row}."id", ${row}."uuid", coalesce(${permitted}, false) AS "permitted"
       FROM "device" ${row}
      WHERE ${conditions.join(' AND ')} AND (${visible} OR ${permitted})
      ORDER BY ${row}."id"`,
    params.values(),
  );
  if (rows.some((target) => !target.permitted)) throw forbidden();
  return rows.map(({ id, uuid }) => ({ id, uuid }));
};

// Whether the actor can see the fleet at all: an empty fan-out on a fleet it cannot see is a 401,
// on one it can see a plain "no online device".
export const fleetVisible = async (
  ctx: AppContext,
  actor: Actor,
  applicationId: number,
): Promise<boolean> => {
  const params = createSqlParams(actor);
  const permission = createPermissionFilter(params);
  const readable = permission(resourceOf(ctx.model, 'application'), 'read', '"a"');
  if (readable === null) return false;
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM "application" "a" WHERE "a"."id" = ${params.add(applicationId)}::integer AND ${readable}`,
    params.values(),
  );
  return rows.length > 0;
};
