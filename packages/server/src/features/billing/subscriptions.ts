import {
  type BillingCycle,
  freePlanCode,
  isBillingCycle,
} from '@flotilla/shared/billing/catalogue';
import { periodEndOf } from '@flotilla/shared/billing/plan-change';
import type { Queryable } from '../../infra/db/database.js';
import { type Plan, planByCode, planById } from './catalogue.js';

export type Subscription = {
  id: number;
  organization: number;
  plan: Plan;
  cycle: BillingCycle;
  periodStart: Date;
  periodEnd: Date;
  discountPercentage: number;
  // Add-on feature slugs the subscription holds today (prepaid add-ons within their dates).
  addons: string[];
};

type SubscriptionRow = {
  id: number;
  is_for__organization: number;
  is_for__plan: number;
  billing_cycle: string;
  current_period_starts_on__date: Date;
  current_period_ends_on__date: Date;
  discount_percentage: number;
};

const activeRow = async (
  db: Queryable,
  organization: number,
  lock: boolean,
): Promise<SubscriptionRow | undefined> => {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT s."id", s."is_for__organization", s."is_for__plan", s."billing_cycle",
       s."current_period_starts_on__date", s."current_period_ends_on__date", s."discount_percentage"
     FROM "subscription" s WHERE s."is_for__organization" = $1 AND s."is_active"${lock ? ' FOR UPDATE' : ''}`,
    [organization],
  );
  return rows[0];
};

const addonsOf = async (db: Queryable, subscription: number, now: Date): Promise<string[]> => {
  // A prepaid add-on counts only from its start date until its expiry date.
  const { rows } = await db.query<{ slug: string }>(
    `SELECT DISTINCT f."slug" FROM "subscription_prepaid_addon" spa
     JOIN "plan_addon" pa ON pa."id" = spa."is_for__plan_addon"
     JOIN "feature" f ON f."id" = pa."offers__feature"
     WHERE spa."is_for__subscription" = $1 AND spa."quantity" > 0 AND spa."starts_on__date" <= $2
       AND (spa."expires_on__date" IS NULL OR spa."expires_on__date" > $2)`,
    [subscription, now],
  );
  return rows.map((row) => row.slug);
};

// The organization's active subscription; an organization without one is on the free plan from
// now on (it gets a subscription row the first time billing looks at it).
export const activeSubscription = async (
  db: Queryable,
  organization: number,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<Subscription> => {
  let row = await activeRow(db, organization, options.lock ?? false);
  if (!row) {
    const free = await planByCode(db, freePlanCode);
    if (!free) throw new Error('the catalogue has no free plan');
    // Two first looks at once insert one row: the loser's insert does nothing.
    await db.query(
      `INSERT INTO "subscription" ("is_for__organization", "is_for__plan", "billing_cycle",
         "starts_on__date", "current_period_starts_on__date", "current_period_ends_on__date")
       VALUES ($1, $2, 'monthly', $3, $3, $4)
       ON CONFLICT ("is_for__organization") WHERE "is_active" DO NOTHING`,
      [organization, free.id, now, periodEndOf(now, 'monthly')],
    );
    row = await activeRow(db, organization, options.lock ?? false);
    if (!row) throw new Error(`no subscription for organization ${organization}`);
  }
  const cycle = isBillingCycle(row.billing_cycle) ? row.billing_cycle : 'monthly';
  return {
    id: row.id,
    organization: row.is_for__organization,
    plan: await planById(db, row.is_for__plan),
    cycle,
    periodStart: row.current_period_starts_on__date,
    periodEnd: row.current_period_ends_on__date,
    discountPercentage: row.discount_percentage,
    addons: await addonsOf(db, row.id, now),
  };
};

// Ends the active subscription (if any) and starts another whose first period begins now.
export const startSubscription = async (
  db: Queryable,
  organization: number,
  plan: Plan,
  cycle: BillingCycle,
  now: Date,
  reason: string | null,
  origin = 'self-serve',
): Promise<void> => {
  await db.query(
    `UPDATE "subscription" SET "is_active" = false, "ends_on__date" = $2
     WHERE "is_for__organization" = $1 AND "is_active"`,
    [organization, now],
  );
  await db.query(
    `INSERT INTO "subscription" ("is_for__organization", "is_for__plan", "billing_cycle",
       "starts_on__date", "current_period_starts_on__date", "current_period_ends_on__date",
       "change_reason", "origin")
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [organization, plan.id, cycle, now, periodEndOf(now, cycle), reason, origin],
  );
};
