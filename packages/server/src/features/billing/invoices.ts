import { invoiceDueDays, type InvoiceState } from '@flotilla/shared/billing/invoices';
import { salesTaxOf } from '@flotilla/shared/billing/sales-tax';
import type { Queryable } from '../../infra/db/database.js';
import type { ChargeLine } from './charges.js';
import { applyFreezing } from './freezing.js';
import { salesTaxLine, salesTaxRates } from './sales-tax.js';

export type InvoiceLine = Pick<
  ChargeLine,
  'code' | 'quantity' | 'unitCostCents' | 'amountCents'
> & {
  description: string;
};

export type Invoice = {
  id: number;
  uuid: string;
  invoiceNumber: string;
  createdAt: Date;
  periodStart: Date;
  periodEnd: Date;
  dueOn: Date;
  closedAt: Date | null;
  state: InvoiceState;
  currency: string;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  billTo: Record<string, unknown>;
};

const dayMs = 24 * 60 * 60 * 1000;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

// The country and state of a bill-to address (a JSON column: checked, not trusted).
const addressOf = (billTo: Record<string, unknown> | undefined) => {
  const address = billTo?.['address'];
  if (typeof address !== 'object' || address === null) return {};
  return {
    country: text(Reflect.get(address, 'country')),
    state: text(Reflect.get(address, 'state')),
  };
};

export const toInvoiceLines = (lines: readonly ChargeLine[]): InvoiceLine[] =>
  lines
    .filter((line) => line.amountCents !== 0)
    .map((line) => ({
      code: line.code,
      description: line.name,
      quantity: line.quantity,
      unitCostCents: line.unitCostCents,
      amountCents: line.amountCents,
    }));

// Issues an invoice of these lines, applying the account's carried balance (and carrying a
// negative total to it). Nothing is issued when there is nothing to bill. Runs in the caller's
// transaction.
export const issueInvoice = async (
  tx: Queryable,
  input: {
    organization: number;
    now: Date;
    periodStart: Date;
    periodEnd: Date;
    lines: InvoiceLine[];
  },
): Promise<number | undefined> => {
  const lines = [...input.lines];
  if (lines.length === 0) return undefined;
  await tx.query(
    `INSERT INTO "billing_account" ("organization") VALUES ($1) ON CONFLICT DO NOTHING`,
    [input.organization],
  );
  const { rows: accounts } = await tx.query<{
    credit_balance_cents: number;
    bill_to: Record<string, unknown>;
  }>(
    `SELECT "credit_balance_cents", jsonb_build_object('email', "email", 'company_name', "company_name",
       'address', "address", 'tax_id', "tax_id") AS "bill_to"
     FROM "billing_account" WHERE "organization" = $1 FOR UPDATE`,
    [input.organization],
  );
  const account = accounts[0];
  let balance = account?.credit_balance_cents ?? 0;
  const subtotal = lines.reduce((sum, line) => sum + line.amountCents, 0);
  // Sales tax is on what is billed (after discounts and credited time), before the account's
  // balance, which pays the invoice rather than lowering its price.
  const tax = salesTaxOf(addressOf(account?.bill_to), await salesTaxRates(tx), subtotal);
  if (tax) lines.push(salesTaxLine(tax));
  const taxed = subtotal + (tax?.taxCents ?? 0);
  if (subtotal < 0) {
    lines.push({
      code: 'balance',
      description: 'Carried to account balance',
      quantity: 1,
      unitCostCents: -subtotal,
      amountCents: -subtotal,
    });
    balance += -subtotal;
  } else if (taxed > 0 && balance > 0) {
    const applied = Math.min(balance, taxed);
    lines.push({
      code: 'balance',
      description: 'Account balance applied',
      quantity: 1,
      unitCostCents: -applied,
      amountCents: -applied,
    });
    balance -= applied;
  }
  await tx.query(
    `UPDATE "billing_account" SET "credit_balance_cents" = $2 WHERE "organization" = $1`,
    [input.organization, balance],
  );
  const total = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const state: InvoiceState = total === 0 ? 'paid' : 'open';
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO "invoice" ("organization", "invoice_number", "created_at", "period_starts_on",
       "period_ends_on", "due_on", "closed_at", "state", "subtotal_in_cents", "tax_in_cents",
       "total_in_cents", "bill_to")
     VALUES ($1, 'FLT-' || lpad(nextval('invoice_number_seq')::text, 6, '0'), $2, $3, $4, $5, $6,
       $7, $8, $11, $9, $10::jsonb)
     RETURNING "id"`,
    [
      input.organization,
      input.now,
      input.periodStart,
      input.periodEnd,
      new Date(input.now.getTime() + invoiceDueDays * dayMs),
      state === 'paid' ? input.now : null,
      state,
      subtotal,
      total,
      JSON.stringify(account?.bill_to ?? {}),
      tax?.taxCents ?? 0,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('invoice insert returned nothing');
  for (const [position, line] of lines.entries()) {
    await tx.query(
      `INSERT INTO "invoice_line" ("invoice", "position", "code", "description", "quantity",
         "unit_cost_cents", "amount_cents") VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        position,
        line.code,
        line.description,
        line.quantity,
        line.unitCostCents,
        line.amountCents,
      ],
    );
  }
  return id;
};

type InvoiceRow = {
  id: number;
  uuid: string;
  invoice_number: string;
  created_at: Date;
  period_starts_on: Date;
  period_ends_on: Date;
  due_on: Date;
  closed_at: Date | null;
  state: InvoiceState;
  currency: string;
  subtotal_in_cents: number;
  tax_in_cents: number;
  total_in_cents: number;
  bill_to: Record<string, unknown>;
};

const toInvoice = (row: InvoiceRow): Invoice => ({
  id: row.id,
  uuid: row.uuid,
  invoiceNumber: row.invoice_number,
  createdAt: row.created_at,
  periodStart: row.period_starts_on,
  periodEnd: row.period_ends_on,
  dueOn: row.due_on,
  closedAt: row.closed_at,
  state: row.state,
  currency: row.currency,
  subtotalCents: row.subtotal_in_cents,
  taxCents: row.tax_in_cents,
  totalCents: row.total_in_cents,
  billTo: row.bill_to,
});

const invoiceColumns = `"id", "uuid", "invoice_number", "created_at", "period_starts_on",
  "period_ends_on", "due_on", "closed_at", "state", "currency", "subtotal_in_cents",
  "tax_in_cents", "total_in_cents", "bill_to"`;

export const listInvoices = async (db: Queryable, organization: number): Promise<Invoice[]> => {
  const { rows } = await db.query<InvoiceRow>(
    `SELECT ${invoiceColumns} FROM "invoice" WHERE "organization" = $1 ORDER BY "created_at" DESC, "id" DESC`,
    [organization],
  );
  return rows.map(toInvoice);
};

export const invoiceByNumber = async (
  db: Queryable,
  organization: number,
  invoiceNumber: string,
): Promise<{ invoice: Invoice; lines: InvoiceLine[] } | undefined> => {
  const { rows } = await db.query<InvoiceRow>(
    `SELECT ${invoiceColumns} FROM "invoice" WHERE "organization" = $1 AND "invoice_number" = $2`,
    [organization, invoiceNumber],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { rows: lines } = await db.query<{
    code: string;
    description: string;
    quantity: number;
    unit_cost_cents: number;
    amount_cents: number;
  }>(
    `SELECT "code", "description", "quantity", "unit_cost_cents", "amount_cents" FROM "invoice_line"
     WHERE "invoice" = $1 ORDER BY "position"`,
    [row.id],
  );
  return {
    invoice: toInvoice(row),
    lines: lines.map((line) => ({
      code: line.code,
      description: line.description,
      quantity: line.quantity,
      unitCostCents: line.unit_cost_cents,
      amountCents: line.amount_cents,
    })),
  };
};

// Open invoices past their due date become past due; the organization's past-due date is its
// oldest unpaid due date, and it is frozen (or unfrozen) by it.
export const trackOverdue = async (
  db: Queryable,
  organization: number,
  now: Date,
): Promise<void> => {
  await db.query(
    `UPDATE "invoice" SET "state" = 'past_due' WHERE "organization" = $1 AND "state" = 'open' AND "due_on" <= $2`,
    [organization, now],
  );
  await db.query(
    `UPDATE "organization" SET "has_past_due_invoice_since__date" = (
       SELECT min("due_on") FROM "invoice" WHERE "organization" = $1 AND "state" = 'past_due')
     WHERE "id" = $1`,
    [organization],
  );
  await applyFreezing(db, organization, now);
};

// A payment recorded by a platform administrator (the manual provider), or confirmed by a
// payment provider.
export const recordPayment = async (
  db: Queryable,
  invoiceUuid: string,
  reference: string,
  now: Date,
): Promise<{ organization: number } | undefined> => {
  const { rows } = await db.query<{ organization: number }>(
    `UPDATE "invoice" SET "state" = 'paid', "closed_at" = $3, "payment_reference" = $2
     WHERE "uuid" = $1 AND "state" IN ('open', 'past_due') RETURNING "organization"`,
    [invoiceUuid, reference, now],
  );
  return rows[0];
};
