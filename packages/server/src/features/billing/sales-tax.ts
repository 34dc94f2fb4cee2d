import {
  anyState,
  isValidRate,
  type SalesTax,
  type SalesTaxRates,
  salesTaxDescription,
  salesTaxOf,
  usStateCodes,
} from '@flotilla/shared/billing/sales-tax';
import { z } from 'zod';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { InvoiceLine } from './invoices.js';

export const salesTaxRates = async (db: Queryable): Promise<SalesTaxRates> => {
  const { rows } = await db.query<{ state: string; rate_percent: string }>(
    `SELECT "state", "rate_percent" FROM "us_sales_tax_rate" ORDER BY "state"`,
  );
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.rate_percent)]));
};

// The sales tax an invoice of `taxableCents` to this organization's billing address carries.
export const accountSalesTax = async (
  db: Queryable,
  organization: number,
  taxableCents: number,
): Promise<SalesTax | undefined> => {
  const { rows } = await db.query<{ address: { country?: string; state?: string } }>(
    `SELECT "address" FROM "billing_account" WHERE "organization" = $1`,
    [organization],
  );
  const address = rows[0]?.address;
  if (!address) return undefined;
  return salesTaxOf(address, await salesTaxRates(db), taxableCents);
};

export const salesTaxLine = (tax: SalesTax): InvoiceLine => ({
  code: 'tax',
  description: salesTaxDescription(tax),
  quantity: 1,
  unitCostCents: tax.taxCents,
  amountCents: tax.taxCents,
});

export const salesTaxBody = z.object({
  rates: z.record(z.string(), z.number({ error: 'Each rate must be a number' })),
});

// Replaces every rate: states missing from `rates` are no longer taxed.
export const replaceSalesTaxRates = async (
  db: Queryable,
  rates: Record<string, number>,
): Promise<SalesTaxRates> => {
  for (const [state, rate] of Object.entries(rates)) {
    if (state !== anyState && !usStateCodes.includes(state)) {
      throw badRequest(`${state} is not a US state code (or * for every state)`);
    }
    if (!isValidRate(rate)) {
      throw badRequest(
        `The rate of ${state} must be a percentage from 0 to 100 (3 decimals at most)`,
      );
    }
  }
  await db.query(`DELETE FROM "us_sales_tax_rate"`);
  for (const [state, rate] of Object.entries(rates)) {
    await db.query(`INSERT INTO "us_sales_tax_rate" ("state", "rate_percent") VALUES ($1, $2)`, [
      state,
      rate,
    ]);
  }
  return salesTaxRates(db);
};
