import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { Queryable } from '../../infra/db/database.js';
import type { StripeConfig, StripePaymentMethodType } from '../../infra/config/stripe.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { InvoiceCharge, PaymentMethodDisplay, PaymentProvider } from './payment-provider.js';

// The Stripe client of a configuration: Stripe's API, or a stand-in at the configured address.
export const stripeClientOf = (config: StripeConfig): Stripe => {
  const url = new URL(config.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.secretKey, {
    host: url.hostname,
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
};

type AccountIds = {
  provider_customer_id: string | null;
  provider_payment_method_id: string | null;
  email: string | null;
  company_name: string | null;
  method_type: string | null;
};

const accountIds = async (db: Queryable, organization: number): Promise<AccountIds> => {
  await db.query(
    `INSERT INTO "billing_account" ("organization") VALUES ($1) ON CONFLICT DO NOTHING`,
    [organization],
  );
  const { rows } = await db.query<AccountIds>(
    `SELECT "provider_customer_id", "provider_payment_method_id", "email", "company_name",
       "payment_method"->>'type' AS "method_type"
     FROM "billing_account" WHERE "organization" = $1`,
    [organization],
  );
  const row = rows[0];
  if (!row) throw new Error(`no billing account for organization ${organization}`);
  return row;
};

// What the console may show of a Stripe payment method: its kind, brand and last digits.
export const displayOf = (method: Stripe.PaymentMethod): PaymentMethodDisplay => {
  if (method.card) {
    return {
      type: 'card',
      last_four: method.card.last4,
      card_type: method.card.brand,
      month: String(method.card.exp_month),
      year: String(method.card.exp_year),
    };
  }
  const last4 = method.us_bank_account?.last4 ?? method.sepa_debit?.last4 ?? undefined;
  return { type: method.type, ...(last4 ? { last_four: last4 } : {}) };
};

const idOf = (value: string | { id: string } | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.id;

const chargeOutcome = (intent: Stripe.PaymentIntent, methodId: string): InvoiceCharge => {
  if (intent.status === 'succeeded') return { status: 'paid', paymentId: intent.id, methodId };
  if (intent.status === 'processing') return { status: 'pending', paymentId: intent.id, methodId };
  return {
    status: 'failed',
    paymentId: intent.id,
    methodId,
    message:
      intent.last_payment_error?.message ??
      'The payment needs the cardholder to confirm it: add the card again',
  };
};

const invoiceCurrency = 'usd';
// Stripe collects SEPA Direct Debit in euros only.
const sepaCollects = (currency: string): boolean => currency === 'eur';

// Payments through Stripe: a customer per organization (created on first use), cards and bank
// accounts (ACH, SEPA: debits under a mandate the SetupIntent records) saved through
// SetupIntents, invoices and credits charged off-session to the default method. Stripe's webhook
// (stripe-webhook.ts) settles what finishes later (a bank debit takes days).
export const createStripeProvider = (
  db: Queryable,
  stripe: Stripe,
  paymentMethodTypes: readonly StripePaymentMethodType[] = ['card'],
): PaymentProvider => {
  const customerOf = async (organization: number): Promise<AccountIds & { customer: string }> => {
    const account = await accountIds(db, organization);
    if (account.provider_customer_id !== null) {
      return { ...account, customer: account.provider_customer_id };
    }
    const created = await stripe.customers.create(
      {
        ...(account.email ? { email: account.email } : {}),
        ...(account.company_name ? { name: account.company_name } : {}),
        metadata: { flotilla_organization: String(organization) },
      },
      { idempotencyKey: `flotilla-customer-${organization}` },
    );
    await db.query(
      `UPDATE "billing_account" SET "provider_customer_id" = $2
       WHERE "organization" = $1 AND "provider_customer_id" IS NULL`,
      [organization, created.id],
    );
    return { ...(await accountIds(db, organization)), customer: created.id };
  };

  const charge = async (
    organization: number,
    amountCents: number,
    // The same charge to the same method is made once (Stripe keeps its answer to a key).
    onceKey: string,
    metadata: Record<string, string>,
  ): Promise<InvoiceCharge | undefined> => {
    const account = await customerOf(organization);
    const methodId = account.provider_payment_method_id;
    if (methodId === null) return undefined;
    if (account.method_type === 'sepa_debit' && !sepaCollects(invoiceCurrency)) {
      return {
        status: 'failed',
        paymentId: null,
        methodId,
        message:
          'SEPA debits are collected in euros and invoices here are in US dollars: add a card or a US bank account',
      };
    }
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: invoiceCurrency,
          customer: account.customer,
          payment_method: methodId,
          off_session: true,
          confirm: true,
          metadata: { flotilla_organization: String(organization), ...metadata },
        },
        { idempotencyKey: `${onceKey}-${methodId}` },
      );
      return chargeOutcome(intent, methodId);
    } catch (error) {
      // A declined card is an answer, not a fault: the payment is recorded as failed.
      if (error instanceof Stripe.errors.StripeCardError) {
        return {
          status: 'failed',
          paymentId: error.payment_intent?.id ?? null,
          methodId,
          message: error.message,
        };
      }
      throw error;
    }
  };

  return {
    name: 'stripe',
    createSetupIntent: async (organization) => {
      const { customer } = await customerOf(organization);
      const intent = await stripe.setupIntents.create({
        customer,
        payment_method_types: [...paymentMethodTypes],
        usage: 'off_session',
        metadata: { flotilla_organization: String(organization) },
      });
      if (!intent.client_secret) throw new Error('Stripe answered a setup intent without secret');
      return { id: intent.id, client_secret: intent.client_secret };
    },
    // The token is the id of a succeeded setup intent of this organization's customer (the
    // console's card form), or of a payment method to attach to it.
    attachPaymentMethod: async (organization, tokenId) => {
      const { customer } = await customerOf(organization);
      let methodId: string | null;
      if (tokenId.startsWith('seti_')) {
        const intent = await stripe.setupIntents.retrieve(tokenId);
        if (idOf(intent.customer) === customer && intent.status === 'requires_action') {
          // A bank account confirmed by micro-deposits: Stripe's webhook saves it once verified.
          throw badRequest(
            'This bank account is not verified yet: it is saved once its verification completes',
          );
        }
        if (idOf(intent.customer) !== customer || intent.status !== 'succeeded') {
          throw badRequest('This card setup did not complete: add the card again');
        }
        methodId = idOf(intent.payment_method);
      } else if (tokenId.startsWith('pm_')) {
        methodId = (await stripe.paymentMethods.attach(tokenId, { customer })).id;
      } else {
        throw badRequest('Unknown payment token');
      }
      if (methodId === null) throw badRequest('This card setup has no payment method');
      await stripe.customers.update(customer, {
        invoice_settings: { default_payment_method: methodId },
      });
      const method = await stripe.paymentMethods.retrieve(methodId);
      await db.query(
        `UPDATE "billing_account" SET "provider_payment_method_id" = $2 WHERE "organization" = $1`,
        [organization, methodId],
      );
      return displayOf(method);
    },
    removePaymentMethod: async (organization) => {
      const account = await accountIds(db, organization);
      if (account.provider_payment_method_id === null) return;
      await stripe.paymentMethods.detach(account.provider_payment_method_id);
      await db.query(
        `UPDATE "billing_account" SET "provider_payment_method_id" = NULL WHERE "organization" = $1`,
        [organization],
      );
    },
    purchaseCredits: async (organization, amountCents) => {
      const outcome = await charge(organization, amountCents, `flotilla-credits-${randomUUID()}`, {
        flotilla_purpose: 'credits',
      });
      if (!outcome) return { status: 'failed', message: 'Add a payment method first' };
      if (outcome.status === 'paid') return { status: 'paid' };
      return { status: 'failed', message: outcome.message ?? 'The payment is still processing' };
    },
    // One attempt per invoice and payment method: a retry (the hourly sweep) reuses Stripe's
    // answer instead of charging twice.
    chargeInvoice: (organization, invoice) =>
      charge(organization, invoice.totalCents, `flotilla-invoice-${invoice.uuid}`, {
        flotilla_invoice: invoice.uuid,
        flotilla_invoice_number: invoice.invoiceNumber,
      }),
  };
};
