import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { setPaymentMethod } from './billing-account.js';
import { configuredPayments } from './configured-payment-provider.js';
import { collectInvoices } from './invoice-collection.js';
import { recordPayment, trackOverdue } from './invoices.js';
import type { PaymentProvider } from './payment-provider.js';

// Stripe's event retries last three days; a handled event's id is kept a month.
const keptEventDays = 30;

const organizationOf = (metadata: Stripe.Metadata | null): number | undefined => {
  const id = Number(metadata?.flotilla_organization);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

const invoiceOrganization = async (db: Queryable, uuid: string | undefined) => {
  if (!uuid || !/^[0-9a-f-]{36}$/.test(uuid)) return undefined;
  const { rows } = await db.query<{ organization: number }>(
    `SELECT "organization" FROM "invoice" WHERE "uuid" = $1`,
    [uuid],
  );
  return rows[0]?.organization;
};

// The card form's return normally saves the card; this covers a return that never came. It
// reaches the payment provider (the card attached, open invoices charged), so it runs outside a
// transaction and is recorded once answered.
const handleSetupIntent = async (
  ctx: AppContext,
  provider: PaymentProvider,
  intent: Stripe.SetupIntent,
): Promise<void> => {
  const organization = organizationOf(intent.metadata);
  if (organization === undefined) return;
  const method = await provider.attachPaymentMethod(organization, intent.id);
  await setPaymentMethod(ctx.db, organization, method);
  await collectInvoices(ctx.db, provider, organization, ctx.now());
};

type PaymentEvent =
  | Stripe.PaymentIntentSucceededEvent
  | Stripe.PaymentIntentPaymentFailedEvent
  | Stripe.PaymentIntentCanceledEvent;
const isPaymentEvent = (event: Stripe.Event): event is PaymentEvent =>
  event.type === 'payment_intent.succeeded' ||
  event.type === 'payment_intent.payment_failed' ||
  event.type === 'payment_intent.canceled';

// A card payment settled: only the database changes, in the caller's transaction.
const handlePayment = async (tx: Queryable, event: PaymentEvent, now: Date): Promise<void> => {
  const intent = event.data.object;
  const uuid = intent.metadata.flotilla_invoice;
  const organization = await invoiceOrganization(tx, uuid);
  if (organization === undefined || uuid === undefined) return;
  if (event.type === 'payment_intent.succeeded') {
    await tx.query(`UPDATE "invoice" SET "payment_error" = NULL WHERE "uuid" = $1`, [uuid]);
    await recordPayment(tx, uuid, `Card payment ${intent.id}`, now);
    await trackOverdue(tx, organization, now);
    return;
  }
  const message =
    intent.last_payment_error?.message ??
    (event.type === 'payment_intent.canceled' ? 'The payment was canceled' : 'The payment failed');
  await tx.query(
    `UPDATE "invoice" SET "payment_error" = $2, "provider_payment_id" = $3
     WHERE "uuid" = $1 AND "state" IN ('open', 'past_due')`,
    [uuid, message, intent.id],
  );
};

// Stripe's webhook: events signed with the endpoint's secret (Stripe-Signature, checked over the
// exact bytes received) settle card payments that finish after the request that started them.
// Each event acts once, however often Stripe delivers it.
export const registerStripeWebhook = (app: FastifyInstance, ctx: AppContext): void => {
  void app.register((scope, _options, done) => {
    // The signature covers the exact bytes: this route reads them unparsed.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (_request, body, parsed) => parsed(null, body),
    );
    scope.post('/billing/v1/stripe/webhook', { config: { access: 'public' } }, async (request) => {
      const { stripe, provider } = configuredPayments(ctx);
      const secret = ctx.config.stripe?.webhookSecret;
      if (!stripe || !secret) throw notFound('Stripe is not configured on this installation');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw badRequest('A signed Stripe event is required');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(request.body, signature, secret);
      } catch {
        throw badRequest('The Stripe signature does not match this event');
      }
      const receive = (db: Queryable) =>
        db.query(
          `INSERT INTO "billing_provider_event" ("id", "received_at") VALUES ($1, $2)
           ON CONFLICT DO NOTHING`,
          [event.id, ctx.now()],
        );
      if (isPaymentEvent(event)) {
        // The event's receipt, the invoice it settles and its audit record commit together.
        await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
          if ((await receive(tx)).rowCount === 0) return;
          await handlePayment(tx, event, ctx.now());
        });
        return { received: true };
      }
      const { rowCount } = await receive(ctx.db);
      if (rowCount === 0) return { received: true };
      try {
        if (event.type === 'setup_intent.succeeded') {
          await handleSetupIntent(ctx, provider, event.data.object);
        }
      } catch (error) {
        // Not handled: let Stripe deliver it again.
        await ctx.db.query(`DELETE FROM "billing_provider_event" WHERE "id" = $1`, [event.id]);
        throw error;
      }
      return { received: true };
    });
    done();
  });
};

// Handled events older than Stripe's retries are forgotten (the hourly billing sweep).
export const forgetOldProviderEvents = (db: Queryable, now: Date): Promise<unknown> =>
  db.query(
    `DELETE FROM "billing_provider_event" WHERE "received_at" < $1::timestamptz - make_interval(days => $2)`,
    [now, keptEventDays],
  );
