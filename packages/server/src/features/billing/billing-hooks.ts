import { gateOfFleetRole, type PlanGate, planAllows } from '@flotilla/shared/billing/plan-gates';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, ResourceHooks, WriteContext } from '../../infra/odata/hooks.js';
import { planFactsOf } from './plan-info.js';
import { activeSubscription } from './subscriptions.js';

// Refuses the write when an organization's plan does not allow `gate`.
const requireGate = async (
  ctx: WriteContext,
  organizations: readonly number[],
  gate: PlanGate,
): Promise<void> => {
  for (const organization of organizations) {
    const subscription = await activeSubscription(ctx.tx, organization, ctx.now);
    const answer = planAllows(planFactsOf(subscription), gate);
    if (!answer.allowed) throw badRequest(answer.reason);
  }
};

const organizationsOf = async (tx: Queryable, sql: string, params: SqlValue[]): Promise<number[]> =>
  (await tx.query<{ organization: number }>(sql, params)).rows.map((row) => row.organization);

const gateOfRoleId = async (tx: Queryable, roleId: SqlValue | undefined) => {
  if (roleId === undefined || roleId === null) return undefined;
  const { rows } = await tx.query<{ name: string }>(
    'SELECT "name" FROM "application_membership_role" WHERE "id" = $1',
    [roleId],
  );
  // An unknown role is the membership rules' to refuse.
  const name = rows[0]?.name;
  return name === undefined ? undefined : gateOfFleetRole(name);
};

// A fleet role given to a user or a team: limited roles and the operator role need their plan.
const fleetRoleGate = (table: string, fleetColumn: string): ResourceHooks => ({
  beforeCreate: async (ctx, values) => {
    const gate = await gateOfRoleId(ctx.tx, values.application_membership_role);
    if (!gate) return;
    const fleet = values[fleetColumn] ?? null;
    const organizations = await organizationsOf(
      ctx.tx,
      'SELECT "organization" FROM "application" WHERE "id" = $1',
      [fleet],
    );
    await requireGate(ctx, organizations, gate);
  },
  beforeUpdate: async (ctx, ids, values) => {
    const gate = await gateOfRoleId(ctx.tx, values.application_membership_role);
    if (!gate || ids.length === 0) return;
    const organizations = await organizationsOf(
      ctx.tx,
      `SELECT DISTINCT a."organization" FROM "${table}" t
       JOIN "application" a ON a."id" = t."${fleetColumn}" WHERE t."id" = ANY($1::integer[])`,
      [[...ids]],
    );
    await requireGate(ctx, organizations, gate);
  },
});

// The plan gates on /v7 writes (with billing on): deactivating a device needs a paid plan, and
// so do the operator and limited fleet roles (limited ones also the preview add-on).
export const registerBillingHooks = (
  hooks: HookRegistry,
  options: { billingEnabled: boolean },
): void => {
  if (!options.billingEnabled) return;
  hooks.add('device', {
    beforeUpdate: async (ctx, ids, values) => {
      if (values.is_active !== false || ids.length === 0) return;
      const organizations = await organizationsOf(
        ctx.tx,
        `SELECT DISTINCT a."organization" FROM "device" d
         JOIN "application" a ON a."id" = d."belongs_to__application"
         WHERE d."id" = ANY($1::integer[]) AND d."is_active"`,
        [[...ids]],
      );
      await requireGate(ctx, organizations, 'deactivation');
    },
  });
  hooks.add(
    'user_application_membership',
    fleetRoleGate('user_application_membership', 'is_member_of__application'),
  );
  hooks.add(
    'team_application_access',
    fleetRoleGate('team_application_access', 'grants_access_to__application'),
  );
};
