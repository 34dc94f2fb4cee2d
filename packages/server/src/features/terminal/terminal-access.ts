import { devicePanelPermissions } from '@flotilla/shared/devices/device-action-permissions';
import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

// The permission a terminal target needs (seed 001 section 6): resin.device.ssh for a service's
// shell, resin.device.ssh-host for the host OS. The console reads the same table.
export const terminalPermission = (target: TerminalTarget) =>
  devicePanelPermissions[target.kind === 'host' ? 'terminal-host' : 'terminal-service'];

// The id of the device `uuid` when the actor may open `target` on it; undefined otherwise (the
// device does not exist, the actor cannot see it, or may see it but not open this terminal: the
// browser hears the same "unauthorized" for each, so a uuid's existence does not leak).
export const terminalDeviceId = async (
  ctx: AppContext,
  actor: Actor,
  uuid: string,
  target: TerminalTarget,
): Promise<number | undefined> => {
  // Only people open terminals, and only once their second factor is done.
  if (actor.kind !== 'user' || actor.twoFactorPending) return undefined;
  const params = createSqlParams(actor);
  const permission = createPermissionFilter(params);
  const row = '"d"';
  const permitted = permission(
    resourceOf(ctx.model, 'device'),
    terminalPermission(target).action,
    row,
  );
  if (permitted === null) return undefined;
  const { rows } = await ctx.db.query<{ id: number }>(
    `SELECT ${row}."id" FROM "device" ${row}
      WHERE ${row}."uuid" = ${params.add(uuid)} AND ${permitted}`,
    params.values(),
  );
  return rows[0]?.id;
};
