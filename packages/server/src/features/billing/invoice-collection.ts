import type { Queryable } from '../../infra/db/database.js';
import { recordPayment, trackOverdue } from './invoices.js';
import type { InvoiceCharge, PaymentProvider } from './payment-provider.js';

type Uncharged = { uuid: string; invoice_number: string; total_in_cents: number };

// Charges an organization's unpaid invoices to its payment method on file: each invoice once per
// payment method (a declined card is not charged again; a new one is tried). A provider that is
// out of reach leaves the invoice for the next sweep. Answers how many were deferred so.
export const collectInvoices = async (
  db: Queryable,
  provider: PaymentProvider,
  organization: number,
  now: Date,
): Promise<{ deferred: number }> => {
  const { rows } = await db.query<Uncharged>(
    `SELECT i."uuid", i."invoice_number", i."total_in_cents" FROM "invoice" i
     JOIN "billing_account" a ON a."organization" = i."organization"
     WHERE i."organization" = $1 AND i."state" IN ('open', 'past_due') AND i."total_in_cents" > 0
       AND a."provider_payment_method_id" IS NOT NULL
       AND (i."provider_payment_method_id" IS NULL OR (i."payment_error" IS NOT NULL
         AND i."provider_payment_method_id" IS DISTINCT FROM a."provider_payment_method_id"))
     ORDER BY i."id"`,
    [organization],
  );
  let deferred = 0;
  let paid = false;
  for (const row of rows) {
    let charge: InvoiceCharge | undefined;
    try {
      charge = await provider.chargeInvoice(organization, {
        uuid: row.uuid,
        invoiceNumber: row.invoice_number,
        totalCents: row.total_in_cents,
      });
    } catch {
      deferred += 1;
      continue;
    }
    if (!charge) continue;
    await db.query(
      `UPDATE "invoice" SET "provider_payment_id" = $2, "provider_payment_method_id" = $3,
         "payment_error" = $4 WHERE "uuid" = $1`,
      [row.uuid, charge.paymentId, charge.methodId, charge.message ?? null],
    );
    if (charge.status === 'paid') {
      await recordPayment(db, row.uuid, `Card payment ${charge.paymentId ?? ''}`.trim(), now);
      paid = true;
    }
  }
  if (paid) await trackOverdue(db, organization, now);
  return { deferred };
};
