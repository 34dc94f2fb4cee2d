import { checkTaxId } from '@flotilla/shared/billing/tax-id';
import { z } from 'zod';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { PaymentMethodDisplay } from './payment-provider.js';

type Address = Partial<
  Record<'address1' | 'address2' | 'city' | 'state' | 'zip' | 'country' | 'phone', string>
>;
type TaxId = { type: string; value: string; country?: string | undefined };

export type AccountInfo = {
  account_state: string;
  email?: string;
  company_name?: string;
  address: Address;
  tax_id: TaxId | null;
};

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

export const accountInfoBody = z.object({
  email: z.email('Invalid email').max(320).optional(),
  company_name: text(255).optional(),
  address: z
    .object({
      address1: text(200).optional(),
      address2: text(200).optional(),
      city: text(200).optional(),
      state: text(200).optional(),
      zip: text(40).optional(),
      country: text(2).optional(),
      phone: text(40).optional(),
    })
    .optional(),
  // A tax id without its type or value is cleared.
  tax_id: z
    .object({ type: text(40).optional(), value: text(80).optional(), country: text(2).optional() })
    .nullable()
    .optional(),
});

type AccountRow = {
  account_state: string;
  email: string | null;
  company_name: string | null;
  address: Address;
  tax_id: TaxId | null;
  payment_method: PaymentMethodDisplay | null;
};

const ensureAccount = (db: Queryable, organization: number) =>
  db.query(`INSERT INTO "billing_account" ("organization") VALUES ($1) ON CONFLICT DO NOTHING`, [
    organization,
  ]);

const accountRow = async (db: Queryable, organization: number): Promise<AccountRow> => {
  await ensureAccount(db, organization);
  const { rows } = await db.query<AccountRow>(
    `SELECT "account_state", "email", "company_name", "address", "tax_id", "payment_method"
     FROM "billing_account" WHERE "organization" = $1`,
    [organization],
  );
  const row = rows[0];
  if (!row) throw new Error(`no billing account for organization ${organization}`);
  return row;
};

export const getAccountInfo = async (db: Queryable, organization: number): Promise<AccountInfo> => {
  const row = await accountRow(db, organization);
  return {
    account_state: row.account_state,
    ...(row.email === null ? {} : { email: row.email }),
    ...(row.company_name === null ? {} : { company_name: row.company_name }),
    address: row.address,
    tax_id: row.tax_id,
  };
};

export const updateAccountInfo = async (
  db: Queryable,
  organization: number,
  body: z.output<typeof accountInfoBody>,
): Promise<AccountInfo> => {
  let taxId: TaxId | null | undefined;
  if (body.tax_id !== undefined) {
    const { type, value, country } = body.tax_id ?? {};
    if (!type || !value) {
      taxId = null;
    } else {
      const checked = checkTaxId({ type, value, country });
      if (!checked.ok) throw badRequest(checked.message);
      taxId = checked.taxId;
    }
  }
  await ensureAccount(db, organization);
  await db.query(
    `UPDATE "billing_account" SET
       "email" = CASE WHEN $2::boolean THEN $3 ELSE "email" END,
       "company_name" = CASE WHEN $4::boolean THEN $5 ELSE "company_name" END,
       "address" = CASE WHEN $6::boolean THEN $7::jsonb ELSE "address" END,
       "tax_id" = CASE WHEN $8::boolean THEN $9::jsonb ELSE "tax_id" END
     WHERE "organization" = $1`,
    [
      organization,
      body.email !== undefined,
      body.email ?? null,
      body.company_name !== undefined,
      body.company_name ?? null,
      body.address !== undefined,
      JSON.stringify(body.address ?? {}),
      taxId !== undefined,
      taxId === undefined || taxId === null ? null : JSON.stringify(taxId),
    ],
  );
  return getAccountInfo(db, organization);
};

// The payment method as balena's billing info: an empty object when there is none.
export const getBillingInfo = async (
  db: Queryable,
  organization: number,
): Promise<PaymentMethodDisplay | Record<string, never>> =>
  (await accountRow(db, organization)).payment_method ?? {};

export const setPaymentMethod = async (
  db: Queryable,
  organization: number,
  method: PaymentMethodDisplay | null,
): Promise<void> => {
  await ensureAccount(db, organization);
  await db.query(
    `UPDATE "billing_account" SET "payment_method" = $2::jsonb WHERE "organization" = $1`,
    [organization, method === null ? null : JSON.stringify(method)],
  );
};
