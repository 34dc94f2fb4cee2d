import { isBillingCycle } from '@flotilla/shared/billing/catalogue';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { freezeAfterDays } from '@flotilla/shared/credits/freezing';
import { publicUrlOf } from '../mail/register-mail.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { notifyLowCredits } from './credit-notifications.js';
import { isDiscountCodeOf } from './discounts.js';
import { planByCode } from './catalogue.js';
import { settleOrganization } from './billing-engine.js';
import { paymentProviderOf } from './configured-payment-provider.js';
import { collectInvoices } from './invoice-collection.js';
import { recordPayment, trackOverdue } from './invoices.js';
import { registerSalesTaxAdmin } from './register-sales-tax-admin.js';
import { forgetOldProviderEvents } from './stripe-webhook.js';
import { startSubscription } from './subscriptions.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const paymentParams = z.object({ uuid: z.uuid('Invalid invoice id') });
const paymentBody = z.object({
  reference: z.string().trim().min(1, 'Payment reference is required').max(200),
});
const organizationParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const planBody = z.object({
  billing_code: z.string().trim().min(1, 'Plan is required').max(64),
  cycle: z.string().default('monthly'),
  // One of the plan's discount codes, applied on the subscription's invoices.
  discount_code: z.string().trim().min(1).max(64).optional(),
});

// Settles every organization with an ended period, hourly (reads settle too, so this only makes
// invoices appear for organizations nobody looks at).
const settlementIntervalMs = 60 * 60 * 1000;

// Organizations on the free plan (or not yet on any) with more devices in service than it allows.
const overFreeAllowance = `SELECT a."organization" FROM "device" d
  JOIN "application" a ON a."id" = d."belongs_to__application"
  WHERE d."is_active" AND NOT d."is_frozen" AND NOT EXISTS (
    SELECT 1 FROM "subscription" s JOIN "plan" p ON p."id" = s."is_for__plan"
    WHERE s."is_for__organization" = a."organization" AND s."is_active" AND p."billing_code" <> 'free')
  GROUP BY a."organization"
  HAVING count(*) > (SELECT coalesce(max(pf."quantity"), 0) FROM "plan_feature" pf
    JOIN "plan" p ON p."id" = pf."plan" JOIN "feature" f ON f."id" = pf."provides__feature"
    WHERE p."billing_code" = 'free' AND f."slug" = 'device:any')`;

export const settleDueOrganizations = async (ctx: AppContext): Promise<void> => {
  const { rows } = await ctx.db.query<{ organization: number }>(
    `SELECT "is_for__organization" AS "organization" FROM "subscription"
     WHERE "is_active" AND "current_period_ends_on__date" <= $1
     UNION SELECT "organization" FROM "invoice" WHERE "state" = 'open' AND "due_on" <= $1
     UNION SELECT "id" FROM "organization" WHERE NOT "is_frozen"
       AND "has_past_due_invoice_since__date" <= $1::timestamptz - make_interval(days => $2)
     UNION ${overFreeAllowance}`,
    [ctx.now(), freezeAfterDays],
  );
  for (const { organization } of rows) await settleOrganization(ctx.db, organization, ctx.now());
};

// Charges the unpaid invoices of organizations with a card on file (a card provider only).
const collectDueInvoices = async (ctx: AppContext): Promise<void> => {
  const { rows } = await ctx.db.query<{ organization: number }>(
    `SELECT DISTINCT i."organization" FROM "invoice" i
     JOIN "billing_account" a ON a."organization" = i."organization"
     WHERE i."state" IN ('open', 'past_due') AND a."provider_payment_method_id" IS NOT NULL`,
  );
  const provider = paymentProviderOf(ctx);
  for (const { organization } of rows) {
    await collectInvoices(ctx.db, provider, organization, ctx.now());
  }
};

// The billing sweep: settlements (and with them freezing), then low-credit mails.
export const runBillingSweep = async (ctx: AppContext, consoleUrl: string): Promise<void> => {
  await settleDueOrganizations(ctx);
  await collectDueInvoices(ctx);
  await forgetOldProviderEvents(ctx.db, ctx.now());
  await notifyLowCredits(ctx.db, ctx.now(), consoleUrl);
};

// The platform administrators' side of the manual provider: record a payment (bank transfer or
// chargeback) and put an organization on any plan, custom ones included, without an invoice.
export const registerBillingAdmin = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  app.post(
    '/billing/v1/admin/invoices/:uuid/payments',
    { config: { access: 'user' } },
    async (request) => {
      requirePlatformAdmin(request.actor);
      const { uuid } = parseBody(paymentParams, request.params);
      const { reference } = parseBody(paymentBody, request.body);
      await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
        const paid = await recordPayment(tx, uuid, reference, ctx.now());
        if (!paid) throw notFound('No open invoice with this id');
        await trackOverdue(tx, paid.organization, ctx.now());
      });
      return { state: 'paid' };
    },
  );

  app.put(
    '/billing/v1/admin/organizations/:id/plan',
    { config: { access: 'user' } },
    async (request) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(organizationParams, request.params);
      const body = parseBody(planBody, request.body);
      if (!isBillingCycle(body.cycle)) throw badRequest('Cycle must be monthly or annual');
      const cycle = body.cycle;
      const plan = await planByCode(ctx.db, body.billing_code);
      if (!plan) throw badRequest(`There is no plan ${body.billing_code}`);
      const { rowCount } = await ctx.db.query('SELECT 1 FROM "organization" WHERE "id" = $1', [id]);
      if (rowCount === 0) throw notFound('No such organization');
      const code = body.discount_code ?? null;
      if (code !== null && !(await isDiscountCodeOf(ctx.db, plan.id, code))) {
        throw badRequest(`There is no discount code ${code} for this plan`);
      }
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          await startSubscription(tx, id, plan, cycle, ctx.now(), null, 'admin');
          await tx.query(
            `UPDATE "subscription" SET "discount_code" = $2
           WHERE "is_for__organization" = $1 AND "is_active"`,
            [id, code],
          );
        },
        { organizationId: id },
      );
      return { billing_code: plan.billingCode, cycle, discount_code: code };
    },
  );

  registerSalesTaxAdmin(app, ctx);

  if (ctx.config.billingEnabled) {
    registerPeriodicTask(app, {
      run: () => runBillingSweep(ctx, publicUrlOf(app, ctx.config.publicUrl)),
      intervalMs: settlementIntervalMs,
      firstRunMs: 0,
      failure: 'billing settlement failed',
      schedule: options.schedule,
    });
  }
};
