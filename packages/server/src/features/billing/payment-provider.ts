import { badRequest } from '../../infra/errors/api-error.js';

// What the console shows of a payment method (never a full card or account number).
export type PaymentMethodDisplay = {
  type: string;
  last_four?: string;
  card_type?: string;
  month?: string;
  year?: string;
};

// How payments are taken. The manual provider (the default) takes none itself: invoices are paid
// by bank transfer or charged back, and a platform administrator records each payment. A card
// provider adapter implements the same calls.
// One attempt at charging an invoice to the payment method on file: paid, still processing (a
// webhook settles it), or failed with the provider's reason.
export type InvoiceCharge = {
  status: 'paid' | 'pending' | 'failed';
  paymentId: string | null;
  methodId: string;
  message?: string;
};

export type ChargeableInvoice = { uuid: string; invoiceNumber: string; totalCents: number };

export type PaymentProvider = {
  name: string;
  createSetupIntent: (organization: number) => Promise<{ id: string; client_secret: string }>;
  attachPaymentMethod: (organization: number, tokenId: string) => Promise<PaymentMethodDisplay>;
  removePaymentMethod: (organization: number) => Promise<void>;
  // Charges a credit purchase: paid at once by a card provider, failed with the provider's
  // message, or invoiced (the manual provider: an invoice is issued, paid by bank transfer).
  purchaseCredits: (
    organization: number,
    amountCents: number,
  ) => Promise<
    { status: 'paid' } | { status: 'manually invoiced' } | { status: 'failed'; message: string }
  >;
  // Charges an invoice; undefined when there is nothing to charge it to (no method on file, or a
  // provider that takes no payments itself).
  chargeInvoice: (
    organization: number,
    invoice: ChargeableInvoice,
  ) => Promise<InvoiceCharge | undefined>;
};

const noCardProvider =
  'No card payment provider is configured here: invoices are paid by bank transfer';

export const manualPaymentProvider: PaymentProvider = {
  name: 'manual',
  createSetupIntent: () => Promise.reject(badRequest(noCardProvider)),
  attachPaymentMethod: () => Promise.reject(badRequest(noCardProvider)),
  removePaymentMethod: () => Promise.resolve(),
  purchaseCredits: () => Promise.resolve({ status: 'manually invoiced' }),
  chargeInvoice: () => Promise.resolve(undefined),
};
