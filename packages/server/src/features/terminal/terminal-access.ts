import { devicePanelPermissions } from '@flotilla/shared/devices/device-action-permissions';
import {
  minimumHostOsAccessVersion,
  osVersionBelow,
} from '@flotilla/shared/devices/device-panel-constants';
import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

// The permission a terminal target needs: resin.device.ssh for a service's
// shell, resin.device.ssh-host for the host OS. The console reads the same table.
export const terminalPermission = (target: TerminalTarget) =>
  devicePanelPermissions[target.kind === 'host' ? 'terminal-host' : 'terminal-service'];

// What a terminal start (or the host OS access check) may do: the device's id, or why not.
// Who opens the session (and the administrator behind a login-as) is kept for the server log.
export type TerminalAccess =
  { deviceId: number; userId: number; actualUserId: number | undefined } | { refused: string };

export const notPermitted = 'You may not open this terminal';
export const hostOsTooOld = `Host OS access needs balenaOS ${minimumHostOsAccessVersion} or later`;

// Platform administrators and support agents reach any host OS they may open (as balena's).
const holdsPlatformAccess = (actor: Actor): boolean =>
  actor.kind === 'user' &&
  actor.platformPermissions.some(
    (permission) => permission === 'admin.home' || permission === 'support.home',
  );

// The id of the device `uuid` when the actor may open `target` on it. A device the actor cannot
// see, or may see but not open this terminal on, gets the same "not permitted" (a uuid's
// existence does not leak); a host OS below balenaOS 2.0.0 (host OS access
// only for versions that support it) says so.
export const terminalAccess = async (
  ctx: AppContext,
  actor: Actor,
  uuid: string,
  target: TerminalTarget,
): Promise<TerminalAccess> => {
  // Only people open terminals, and only once their second factor is done.
  if (actor.kind !== 'user' || actor.twoFactorPending) return { refused: notPermitted };
  const params = createSqlParams(actor);
  const permission = createPermissionFilter(params);
  const row = '"d"';
  const permitted = permission(
    resourceOf(ctx.model, 'device'),
    terminalPermission(target).action,
    row,
  );
  if (permitted === null) return { refused: notPermitted };
  const { rows } = await ctx.db.query<{ id: number; os_version: string | null }>(
    `SELECT ${row}."id", ${row}."os_version" FROM "device" ${row}
      WHERE ${row}."uuid" = ${params.add(uuid)} AND ${permitted}`,
    params.values(),
  );
  const device = rows[0];
  if (!device) return { refused: notPermitted };
  if (
    target.kind === 'host' &&
    !holdsPlatformAccess(actor) &&
    osVersionBelow(device.os_version, minimumHostOsAccessVersion)
  ) {
    return { refused: hostOsTooOld };
  }
  return { deviceId: device.id, userId: actor.userId, actualUserId: actor.actualUserId };
};
