import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

// Whether the actor holds manage_webhooks on the organization (its administrators and platform
// administrators, by the permission tables). Anyone else gets the API's 401, whether the
// organization exists or not, so a member learns nothing of its endpoints.
export const assertMayManageWebhooks = async (
  ctx: Pick<AppContext, 'db' | 'model'>,
  actor: Actor,
  organization: number,
): Promise<void> => {
  const params = createSqlParams(actor);
  const idParam = params.add(organization);
  const permitted = createPermissionFilter(params)(
    resourceOf(ctx.model, 'organization'),
    'manage_webhooks',
    '"o"',
  );
  if (permitted === null) throw forbidden();
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM "organization" "o" WHERE "o"."id" = ${idParam}::integer AND ${permitted}`,
    params.values(),
  );
  if (rows.length === 0) throw forbidden();
};
