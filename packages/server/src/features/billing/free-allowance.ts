import { featureSlugs, freePlanCode } from '@flotilla/shared/billing/catalogue';
import type { Queryable } from '../../infra/db/database.js';
import type { Plan } from './catalogue.js';

// On the free plan, an organization's active devices beyond its allowance are frozen: the
// oldest stay in service, the newest over the allowance are frozen (and marked so). On any other
// plan, or once devices are removed below the allowance, the marked ones are unfrozen (frozen
// with the organization instead, when it is frozen itself).
export const applyFreeAllowance = async (
  db: Queryable,
  organization: number,
  plan: Plan,
): Promise<void> => {
  const allowance =
    plan.billingCode === freePlanCode ? (plan.features[featureSlugs.device] ?? 0) : null;
  await db.query(
    `WITH "ranked" AS (
       SELECT d."id", d."is_frozen_over__allowance" AS "marked",
         row_number() OVER (ORDER BY d."created_at", d."id") AS "n"
       FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
       WHERE a."organization" = $1 AND d."is_active"
         AND (NOT d."is_frozen" OR d."is_frozen_over__allowance")
     )
     UPDATE "device" d SET
       "is_frozen" = CASE WHEN r."marked" THEN o."is_frozen" ELSE true END,
       "is_frozen_with__organization" = CASE WHEN r."marked" THEN o."is_frozen"
         ELSE d."is_frozen_with__organization" END,
       "is_frozen_over__allowance" = NOT r."marked"
     FROM "ranked" r, "organization" o
     WHERE d."id" = r."id" AND o."id" = $1
       AND r."marked" = ($2::integer IS NULL OR r."n" <= $2::integer)`,
    [organization, allowance],
  );
};
