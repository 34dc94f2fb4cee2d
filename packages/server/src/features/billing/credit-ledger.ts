import { balanceStatuses } from '@flotilla/shared/credits/credits';
import { featureSlugs } from '@flotilla/shared/billing/catalogue';
import type { Queryable } from '../../infra/db/database.js';
import type { InvoiceLine } from './invoices.js';

const countedStatuses = [...balanceStatuses];

// Credits an organization holds: bundles paid (or complimentary, or manually invoiced) and not
// expired.
export const creditBalance = async (
  db: Queryable,
  organization: number,
  now: Date,
): Promise<number> => {
  const { rows } = await db.query<{ balance: number }>(
    `SELECT coalesce(sum("total_balance"), 0)::integer AS "balance" FROM "credit_bundle"
     WHERE "belongs_to__organization" = $1 AND "payment_status" = ANY($2::text[])
       AND "expires_on__date" > $3`,
    [organization, countedStatuses, now],
  );
  return rows[0]?.balance ?? 0;
};

// Takes up to `wanted` credits from the organization's bundles, those expiring first first.
// Returns how many were taken. Runs in the caller's transaction.
const drawCredits = async (
  tx: Queryable,
  organization: number,
  wanted: number,
  now: Date,
): Promise<number> => {
  if (wanted <= 0) return 0;
  const { rows } = await tx.query<{ id: number; total_balance: number }>(
    `SELECT "id", "total_balance" FROM "credit_bundle"
     WHERE "belongs_to__organization" = $1 AND "payment_status" = ANY($2::text[])
       AND "expires_on__date" > $3 AND "total_balance" > 0
     ORDER BY "expires_on__date", "id" FOR UPDATE`,
    [organization, countedStatuses, now],
  );
  let taken = 0;
  for (const bundle of rows) {
    if (taken >= wanted) break;
    const take = Math.min(bundle.total_balance, wanted - taken);
    await tx.query(
      `UPDATE "credit_bundle" SET "total_balance" = "total_balance" - $2,
         "available_balance" = greatest("available_balance" - $2, 0) WHERE "id" = $1`,
      [bundle.id, take],
    );
    taken += take;
  }
  return taken;
};

// Credits pay for devices over the plan's allowance: one credit per device per month, the
// dearer multi-container devices first. Returns the invoice lines that take the credited
// device-months off the overage lines.
export const consumeCredits = async (
  tx: Queryable,
  organization: number,
  overage: readonly InvoiceLine[],
  months: number,
  now: Date,
): Promise<InvoiceLine[]> => {
  const order: readonly string[] = [featureSlugs.microservicesDevice, featureSlugs.device];
  const deviceLines = overage
    .filter((line) => order.some((code) => code === line.code))
    .sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code));
  const lines: InvoiceLine[] = [];
  for (const line of deviceLines) {
    const deviceMonths = line.quantity * months;
    const taken = await drawCredits(tx, organization, deviceMonths, now);
    if (taken === 0) break;
    const perMonth = Math.round(line.unitCostCents / months);
    lines.push({
      code: `credits:${line.code}`,
      description: `Credits applied (${taken} device-months)`,
      quantity: taken,
      unitCostCents: -perMonth,
      amountCents: -perMonth * taken,
    });
    if (taken < deviceMonths) break;
  }
  return lines;
};
