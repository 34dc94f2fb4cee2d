import {
  type BillingCycle,
  featureSlugs,
  type FreeAllowance,
  freePlanCode,
} from '@flotilla/shared/billing/catalogue';
import { invoiceFileName, isDownloadable } from '@flotilla/shared/billing/invoices';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { assertMayAccessBilling } from './billing-access.js';
import {
  accountInfoBody,
  getAccountInfo,
  getBillingInfo,
  setPaymentMethod,
  updateAccountInfo,
} from './billing-account.js';
import { changePlan, previewPlanChange, settleOrganization } from './billing-engine.js';
import { computeCharges } from './charges.js';
import { creditSummary, creditsNotUsed } from './credit-summary.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import { invoiceByNumber, listInvoices } from './invoices.js';
import { meterOrganization, periodPeak, usageDays } from './metering.js';
import { paymentProviderOf } from './configured-payment-provider.js';
import { collectInvoices } from './invoice-collection.js';
import type { PaymentProvider } from './payment-provider.js';
import { acceptingCaptchaVerifier, type CaptchaVerifier } from '../auth/captcha.js';
import { registerStripeWebhook } from './stripe-webhook.js';
import { planInfoOf, unlimitedPlanInfo } from './plan-info.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const accountParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const invoiceParams = accountParams.extend({ number: z.string().min(1).max(64) });
const planBody = z.object({
  tier: z.string().trim().min(1, 'Plan is required').max(64),
  annual: z.boolean().default(false),
  planChangeReason: z.string().trim().max(2000).optional(),
});
const previewQuery = z.object({
  tier: z.string().trim().min(1, 'Plan is required').max(64),
  cycle: z.enum(['monthly', 'annual']).default('monthly'),
});
const setupIntentBody = z
  .object({ 'g-recaptcha-response': z.string().max(10_000).optional() })
  .nullish();
const billingInfoBody = z.object({
  token_id: z.string().trim().min(1, 'Token is required').max(255),
});

const billingOff = 'Billing is not used on this installation';

// balena's billing API (/billing/v1/account/:organizationId/...), for organization
// administrators (access_billing). With FLOTILLA_BILLING off every organization is on an
// unlimited custom plan: nothing is metered, invoiced or gated.
export const registerBilling = (
  app: FastifyInstance,
  ctx: AppContext,
  deps: { captcha?: CaptchaVerifier; provider?: PaymentProvider } = {},
): void => {
  const provider = deps.provider ?? paymentProviderOf(ctx);
  // The installation's captcha (reCAPTCHA when configured; otherwise every answer is accepted).
  const captcha = deps.captcha ?? acceptingCaptchaVerifier;
  registerStripeWebhook(app, ctx);
  const enabled = ctx.config.billingEnabled;
  const route = { config: { access: 'user' as const } };
  const organizationOf = async (request: {
    params: unknown;
    actor: Parameters<typeof assertMayAccessBilling>[1];
  }) => {
    const { id } = parseBody(accountParams, request.params);
    await assertMayAccessBilling(ctx, request.actor, id);
    return id;
  };

  app.get('/billing/v1/account/:id', route, async (request) =>
    getAccountInfo(ctx.db, await organizationOf(request)),
  );

  app.patch('/billing/v1/account/:id', route, async (request) => {
    const id = await organizationOf(request);
    const body = parseBody(accountInfoBody, request.body);
    const place = { organizationId: id };
    return recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      (tx) => updateAccountInfo(tx, id, body),
      place,
    );
  });

  app.get('/billing/v1/account/:id/plan', route, async (request) => {
    const id = await organizationOf(request);
    if (!enabled) return unlimitedPlanInfo;
    const now = ctx.now();
    const subscription = await settleOrganization(ctx.db, id, now);
    const peak = await periodPeak(
      ctx.db,
      id,
      subscription.periodStart,
      new Date(now.getTime() + 1),
    );
    return planInfoOf(subscription, computeCharges(subscription.plan, subscription.cycle, peak));
  });

  app.get('/billing/v1/account/:id/plan/preview', route, async (request) => {
    const id = await organizationOf(request);
    if (!enabled) throw badRequest(billingOff);
    const query = parseBody(previewQuery, request.query);
    return previewPlanChange(ctx.db, id, ctx.now(), query.tier, query.cycle);
  });

  app.patch('/billing/v1/account/:id/plan', route, async (request) => {
    const id = await organizationOf(request);
    if (!enabled) throw badRequest(billingOff);
    const body = parseBody(planBody, request.body);
    const cycle: BillingCycle = body.annual ? 'annual' : 'monthly';
    const change = { code: body.tier, cycle, reason: body.planChangeReason || null };
    const changed = await changePlan(ctx.db, id, ctx.now(), change, (work) =>
      recordedTransaction(ctx.db, request, ctx.now, work, { organizationId: id }),
    );
    await collectInvoices(ctx.db, provider, id, ctx.now());
    return changed;
  });

  // What Add device warns every member about on the free plan: the allowance and the devices
  // counted against it (frozen ones apart); null on any other plan and with billing off.
  // Members may read it: they see the organization's devices anyway.
  app.get('/billing/v1/account/:id/free-allowance', route, async (request, reply) => {
    const { id } = parseBody(accountParams, request.params);
    await assertMayAccessBilling(ctx, request.actor, id, 'read');
    const answer = async (): Promise<FreeAllowance | null> => {
      if (!enabled) return null;
      const { plan } = await settleOrganization(ctx.db, id, ctx.now());
      if (plan.billingCode !== freePlanCode) return null;
      const usage = await meterOrganization(ctx.db, id);
      return {
        allowance: plan.features[featureSlugs.device] ?? 0,
        devices: usage[featureSlugs.device] ?? 0,
        frozen: usage['device:frozen'] ?? 0,
      };
    };
    return reply.type('application/json').send(JSON.stringify(await answer()));
  });

  app.get('/billing/v1/account/:id/usage', route, async (request) => {
    const id = await organizationOf(request);
    if (!enabled) {
      return {
        currentUsage: {},
        peakUsage: {},
        overage: {},
        charges: {},
        creditConsumption: {},
        days: [],
      };
    }
    const now = ctx.now();
    const subscription = await settleOrganization(ctx.db, id, now);
    const until = new Date(now.getTime() + 1);
    const peak = await periodPeak(ctx.db, id, subscription.periodStart, until);
    const charges = computeCharges(subscription.plan, subscription.cycle, peak);
    return {
      periodStart: subscription.periodStart.toISOString(),
      periodEnd: subscription.periodEnd.toISOString(),
      currentUsage: await meterOrganization(ctx.db, id),
      peakUsage: peak,
      overage: charges.overage,
      charges: Object.fromEntries(charges.lines.map((line) => [line.code, line.amountCents])),
      creditConsumption: {},
      days: await usageDays(ctx.db, id, subscription.periodStart, until),
    };
  });

  app.get('/billing/v1/account/:id/credits', route, async (request) => {
    const id = await organizationOf(request);
    return enabled ? creditSummary(ctx.db, id, ctx.now(), provider) : creditsNotUsed;
  });

  app.get('/billing/v1/account/:id/info', route, async (request) =>
    getBillingInfo(ctx.db, await organizationOf(request)),
  );

  app.patch('/billing/v1/account/:id/info', route, async (request) => {
    const id = await organizationOf(request);
    const { token_id: tokenId } = parseBody(billingInfoBody, request.body);
    const method = await provider.attachPaymentMethod(id, tokenId);
    const attach = (tx: Queryable) => setPaymentMethod(tx, id, method);
    await recordedTransaction(ctx.db, request, ctx.now, attach, { organizationId: id });
    await collectInvoices(ctx.db, provider, id, ctx.now());
    return method;
  });

  app.delete('/billing/v1/account/:id/info', route, async (request) => {
    const id = await organizationOf(request);
    if (enabled) {
      const subscription = await settleOrganization(ctx.db, id, ctx.now());
      if (subscription.plan.billingCode !== freePlanCode) {
        throw badRequest('Move to the free plan before removing the payment method');
      }
    }
    await provider.removePaymentMethod(id);
    const detach = (tx: Queryable) => setPaymentMethod(tx, id, null);
    await recordedTransaction(ctx.db, request, ctx.now, detach, { organizationId: id });
    return {};
  });

  app.post('/billing/v1/account/:id/setup-intent', route, async (request) => {
    const id = await organizationOf(request);
    if (!enabled) throw badRequest(billingOff);
    const body = parseBody(setupIntentBody, request.body);
    // A setup intent reaches the payment provider: the captcha keeps scripts from testing
    // stolen cards through it.
    if (!(await captcha.verify(body?.['g-recaptcha-response'], request.ip))) {
      throw badRequest('The captcha was not verified: try again');
    }
    return provider.createSetupIntent(id);
  });

  app.get('/billing/v1/account/:id/invoices', route, async (request) => {
    const id = await organizationOf(request);
    if (enabled) await settleOrganization(ctx.db, id, ctx.now());
    return (await listInvoices(ctx.db, id)).map((invoice) => ({
      uuid: invoice.uuid,
      invoice_number: invoice.invoiceNumber,
      created_at: invoice.createdAt.toISOString(),
      closed_at: invoice.closedAt?.toISOString() ?? null,
      due_on: invoice.dueOn.toISOString(),
      currency: invoice.currency,
      state: invoice.state,
      subtotal_in_cents: String(invoice.subtotalCents),
      tax_in_cents: String(invoice.taxCents),
      total_in_cents: String(invoice.totalCents),
    }));
  });

  app.get('/billing/v1/account/:id/invoices/:number/download', route, async (request, reply) => {
    const { id, number } = parseBody(invoiceParams, request.params);
    await assertMayAccessBilling(ctx, request.actor, id);
    const found = await invoiceByNumber(ctx.db, id, number);
    if (!found) throw notFound(`No invoice ${number}`);
    if (!isDownloadable(found.invoice.state)) throw badRequest('This invoice is not yet available');
    const pdf = await renderInvoicePdf(found.invoice, found.lines, 'Flotilla');
    const name = invoiceFileName(found.invoice.invoiceNumber, found.invoice.createdAt);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(pdf);
  });
};
