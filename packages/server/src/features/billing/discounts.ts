import type { Queryable } from '../../infra/db/database.js';
import type { InvoiceLine } from './invoices.js';

// The discount a subscription gets on its plan's price: its discount code's percentage (a code
// of its plan, plan__has__discount_code), else its own negotiated percentage.
export const subscriptionDiscount = async (
  db: Queryable,
  subscription: number,
): Promise<{ code: string | null; percentage: number }> => {
  const { rows } = await db.query<{ code: string | null; percentage: number | null }>(
    `SELECT s."discount_code" AS "code",
       coalesce(d."discount_percentage", s."discount_percentage") AS "percentage"
     FROM "subscription" s
     LEFT JOIN "plan__has__discount_code" d
       ON d."plan" = s."is_for__plan" AND d."discount_code" = s."discount_code"
     WHERE s."id" = $1`,
    [subscription],
  );
  const row = rows[0];
  return { code: row?.code ?? null, percentage: row?.percentage ?? 0 };
};

// The discount a subscription keeps on another plan (a plan change): its code's percentage where
// that plan has the code, else its own negotiated percentage.
export const discountOnPlan = async (
  db: Queryable,
  subscription: number,
  plan: number,
): Promise<{ code: string | null; percentage: number }> => {
  const { rows } = await db.query<{ code: string | null; percentage: number | null }>(
    `SELECT s."discount_code" AS "code",
       coalesce(d."discount_percentage", s."discount_percentage") AS "percentage"
     FROM "subscription" s
     LEFT JOIN "plan__has__discount_code" d
       ON d."plan" = $2 AND d."discount_code" = s."discount_code"
     WHERE s."id" = $1`,
    [subscription, plan],
  );
  const row = rows[0];
  return { code: row?.code ?? null, percentage: row?.percentage ?? 0 };
};

// The invoice line taking the discount off the plan's price lines.
export const discountLines = (
  discount: { code: string | null; percentage: number },
  planLines: readonly InvoiceLine[],
): InvoiceLine[] => {
  const base = planLines.reduce((sum, line) => sum + line.amountCents, 0);
  const amount = Math.round((base * discount.percentage) / 100);
  if (amount <= 0) return [];
  const label = discount.code === null ? 'Discount' : `Discount ${discount.code}`;
  return [
    {
      code: 'discount',
      description: `${label} (${discount.percentage}%)`,
      quantity: 1,
      unitCostCents: -amount,
      amountCents: -amount,
    },
  ];
};

// Whether `code` is one of the plan's discount codes.
export const isDiscountCodeOf = async (
  db: Queryable,
  plan: number,
  code: string,
): Promise<boolean> => {
  const { rowCount } = await db.query(
    `SELECT 1 FROM "plan__has__discount_code" WHERE "plan" = $1 AND "discount_code" = $2`,
    [plan, code],
  );
  return (rowCount ?? 0) > 0;
};
