import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import { z } from 'zod';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';

const cents = (label: string) =>
  z
    .number(`${label} must be a number of cents`)
    .int(`${label} must be a whole number of cents`)
    .min(0, `${label} cannot be negative`)
    .max(100_000_000, `${label} is too large`);

// What a platform administrator may change of a plan. Features: slug → included quantity
// (0 removes the feature).
export const planPatchBody = z
  .object({
    title: z.string().trim().min(1, 'Title is required').max(100).optional(),
    monthly_price: cents('Monthly price').optional(),
    annual_price: cents('Annual price').optional(),
    can_self_serve: z.boolean().optional(),
    is_legacy: z.boolean().optional(),
    additional_device_price: cents('Additional device price').optional(),
    additional_microservices_device_price: cents(
      'Additional multi-container device price',
    ).optional(),
    features: z
      .record(
        z.string().max(100),
        z.number().int('Quantities are whole numbers').min(0).max(1_000_000),
      )
      .optional(),
  })
  .strict();
export type PlanPatch = z.infer<typeof planPatchBody>;

const catalogueSelect = `
  SELECT p."id", p."title", p."billing_code", p."tier_rank", p."monthly_price", p."annual_price",
    p."can_self_serve", p."is_legacy", p."is_valid_from__date", p."is_valid_until__date",
    p."additional_device_price", p."additional_microservices_device_price", p."bills_seats",
    COALESCE((SELECT jsonb_object_agg(f."slug", pf."quantity") FROM "plan_feature" pf
      JOIN "feature" f ON f."id" = pf."provides__feature"
      WHERE pf."plan" = p."id" AND f."slug" NOT LIKE 'support:%'), '{}'::jsonb) AS "features",
    (SELECT jsonb_build_object('slug', t."slug", 'title', t."title")
      FROM "plan_feature" pf JOIN "support_feature" sf ON sf."feature" = pf."provides__feature"
      JOIN "support_tier" t ON t."id" = sf."support_tier" WHERE pf."plan" = p."id"
      ORDER BY t."id" DESC LIMIT 1) AS "support"
  FROM "plan" p`;

type CatalogueRow = Omit<CataloguePlan, 'is_valid_from__date' | 'is_valid_until__date'> & {
  is_valid_from__date: Date | null;
  is_valid_until__date: Date | null;
};

const toWire = (row: CatalogueRow): CataloguePlan => ({
  ...row,
  is_valid_from__date: row.is_valid_from__date?.toISOString() ?? null,
  is_valid_until__date: row.is_valid_until__date?.toISOString() ?? null,
});

// Every plan of the catalogue, lowest tier first.
export const listCatalogue = async (db: Queryable): Promise<CataloguePlan[]> =>
  (await db.query<CatalogueRow>(`${catalogueSelect} ORDER BY p."tier_rank", p."id"`)).rows.map(
    toWire,
  );

const columns = [
  'title',
  'monthly_price',
  'annual_price',
  'can_self_serve',
  'is_legacy',
  'additional_device_price',
  'additional_microservices_device_price',
] as const;

// Changes a plan in one transaction; an unknown feature slug changes nothing.
export const patchPlan = async (db: Queryable, planId: number, patch: PlanPatch): Promise<void> => {
  const set = columns.filter((column) => patch[column] !== undefined);
  if (set.length > 0) {
    await db.query(
      `UPDATE "plan" SET ${set.map((column, n) => `"${column}" = $${n + 2}`).join(', ')}
       WHERE "id" = $1`,
      [planId, ...set.map((column) => patch[column] ?? null)],
    );
  }
  for (const [slug, quantity] of Object.entries(patch.features ?? {})) {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "feature" WHERE "slug" = $1 AND "slug" NOT LIKE 'support:%'`,
      [slug],
    );
    const feature = rows[0];
    if (!feature) throw badRequest(`There is no feature ${slug}`);
    if (quantity === 0) {
      await db.query(`DELETE FROM "plan_feature" WHERE "plan" = $1 AND "provides__feature" = $2`, [
        planId,
        feature.id,
      ]);
    } else {
      await db.query(
        `INSERT INTO "plan_feature" ("plan", "provides__feature", "quantity") VALUES ($1, $2, $3)
         ON CONFLICT ("plan", "provides__feature") DO UPDATE SET "quantity" = EXCLUDED."quantity"`,
        [planId, feature.id, quantity],
      );
    }
  }
};
