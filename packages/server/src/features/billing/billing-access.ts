import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden } from '../../infra/errors/api-error.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';

// Whether the actor holds access_billing on the organization (its administrators and platform
// administrators, by the permission tables), or, with `read`, may see the organization at all
// (its members). Anyone else gets the API's 401, whether the organization exists or not.
export const assertMayAccessBilling = async (
  ctx: AppContext,
  actor: Actor,
  organization: number,
  action: 'access_billing' | 'read' = 'access_billing',
): Promise<void> => {
  const params = createSqlParams(actor);
  const idParam = params.add(organization);
  const permitted = createPermissionFilter(params)(
    resourceOf(ctx.model, 'organization'),
    action,
    '"o"',
  );
  if (permitted === null) throw forbidden();
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM "organization" "o" WHERE "o"."id" = ${idParam}::integer AND ${permitted}`,
    params.values(),
  );
  if (rows.length === 0) throw forbidden();
};
