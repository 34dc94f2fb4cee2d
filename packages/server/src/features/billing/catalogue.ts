import type { PlanTierFacts } from '@flotilla/shared/billing/plan-change';
import type { Queryable } from '../../infra/db/database.js';

// A plan of the catalogue with what it includes.
export type Plan = PlanTierFacts & {
  id: number;
  title: string;
  isLegacy: boolean;
  additionalDevicePrice: number;
  additionalMicroservicesDevicePrice: number;
  billsSeats: boolean;
  // Feature slug → included quantity (1 for a flag feature).
  features: Record<string, number>;
  support: { slug: string; title: string; includesPrivateSupport: boolean };
};

type PlanRow = {
  id: number;
  title: string;
  billing_code: string;
  tier_rank: number;
  monthly_price: number;
  annual_price: number;
  can_self_serve: boolean;
  is_legacy: boolean;
  additional_device_price: number;
  additional_microservices_device_price: number;
  bills_seats: boolean;
  features: Record<string, number> | null;
  support: { slug: string; title: string; includes_private_support: boolean } | null;
};

const planSelect = `
  SELECT p."id", p."title", p."billing_code", p."tier_rank", p."monthly_price", p."annual_price",
    p."can_self_serve", p."is_legacy", p."additional_device_price",
    p."additional_microservices_device_price", p."bills_seats",
    (SELECT jsonb_object_agg(f."slug", pf."quantity") FROM "plan_feature" pf
      JOIN "feature" f ON f."id" = pf."provides__feature" WHERE pf."plan" = p."id") AS "features",
    (SELECT jsonb_build_object('slug', t."slug", 'title', t."title",
        'includes_private_support', t."includes_private_support")
      FROM "plan_feature" pf JOIN "support_feature" sf ON sf."feature" = pf."provides__feature"
      JOIN "support_tier" t ON t."id" = sf."support_tier" WHERE pf."plan" = p."id"
      ORDER BY t."id" DESC LIMIT 1) AS "support"
  FROM "plan" p`;

const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  title: row.title,
  billingCode: row.billing_code,
  tierRank: row.tier_rank,
  monthlyPrice: row.monthly_price,
  annualPrice: row.annual_price,
  canSelfServe: row.can_self_serve,
  isLegacy: row.is_legacy,
  additionalDevicePrice: row.additional_device_price,
  additionalMicroservicesDevicePrice: row.additional_microservices_device_price,
  billsSeats: row.bills_seats,
  features: row.features ?? {},
  support: row.support
    ? {
        slug: row.support.slug,
        title: row.support.title,
        includesPrivateSupport: row.support.includes_private_support,
      }
    : { slug: 'community', title: 'Community', includesPrivateSupport: false },
});

export const planByCode = async (db: Queryable, billingCode: string): Promise<Plan | undefined> => {
  const { rows } = await db.query<PlanRow>(`${planSelect} WHERE p."billing_code" = $1`, [
    billingCode,
  ]);
  const row = rows[0];
  return row ? toPlan(row) : undefined;
};

export const planById = async (db: Queryable, id: number): Promise<Plan> => {
  const { rows } = await db.query<PlanRow>(`${planSelect} WHERE p."id" = $1`, [id]);
  const row = rows[0];
  if (!row) throw new Error(`plan ${id} is missing`);
  return toPlan(row);
};

// A plan code as the SDK sends it: a billing code ("pilot-v2") or a bare tier ("pilot"), which
// names the newest self-serve plan of that tier.
export const planByCodeOrTier = async (db: Queryable, code: string): Promise<Plan | undefined> => {
  const exact = await planByCode(db, code);
  if (exact) return exact;
  const { rows } = await db.query<PlanRow>(
    `${planSelect} WHERE regexp_replace(p."billing_code", '-v[0-9]+$', '') = $1
     ORDER BY p."is_legacy", p."id" DESC LIMIT 1`,
    [code],
  );
  const row = rows[0];
  return row ? toPlan(row) : undefined;
};
