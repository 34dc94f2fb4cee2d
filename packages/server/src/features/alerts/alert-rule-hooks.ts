import {
  alertRuleLimits,
  alertRuleMessages,
  alertRuleProblem,
} from '@flotilla/shared/alerts/alert-rules';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values } from '../../infra/odata/hooks.js';

// A rule's fleet, when it names one, must be a fleet of the rule's organization.
const checkFleet = async (
  tx: Queryable,
  organization: SqlValue | undefined,
  fleet: SqlValue | undefined,
): Promise<void> => {
  if (fleet === null || fleet === undefined || organization === undefined) return;
  const { rows } = await tx.query(
    'SELECT 1 FROM "application" WHERE "id" = $1 AND "organization" = $2',
    [fleet, organization],
  );
  if (rows.length === 0) throw badRequest(alertRuleMessages.fleetOfOrganization);
};

const refuseProblem = (rule: Values): void => {
  const problem = alertRuleProblem(rule);
  if (problem !== null) throw badRequest(problem);
};

// /v7 writes of flotilla_alert_rule: the rule checked whole (a metric rule needs its metric and
// threshold, the others have neither), its fleet within its organization, and at most so many
// rules per organization (each is evaluated on every sweep).
export const registerAlertRuleHooks = (hooks: HookRegistry): void => {
  hooks.add('flotilla_alert_rule', {
    async beforeCreate(ctx, values) {
      if (typeof values.name === 'string') values.name = values.name.trim();
      refuseProblem(values);
      await checkFleet(ctx.tx, values.belongs_to__organization, values.applies_to__application);
      const { rows } = await ctx.tx.query<{ count: number }>(
        `SELECT count(*)::int AS "count" FROM "flotilla_alert_rule"
          WHERE "belongs_to__organization" = $1`,
        [values.belongs_to__organization ?? null],
      );
      if ((rows[0]?.count ?? 0) >= alertRuleLimits.perOrganization) {
        throw conflict(alertRuleMessages.tooMany);
      }
    },
    async beforeUpdate(ctx, ids, values) {
      if (typeof values.name === 'string') values.name = values.name.trim();
      const { rows } = await ctx.tx.query<Values>(
        `SELECT "name", "condition", "metric", "threshold", "for_minutes", "pattern",
                "repeat_interval_minutes", "belongs_to__organization", "applies_to__application"
           FROM "flotilla_alert_rule" WHERE "id" = ANY($1::int[]) FOR UPDATE`,
        [ids],
      );
      for (const row of rows) {
        const changed = { ...row, ...values };
        refuseProblem(changed);
        await checkFleet(ctx.tx, changed.belongs_to__organization, changed.applies_to__application);
      }
    },
  });
};
