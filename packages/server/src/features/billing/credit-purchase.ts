import { featureSlugs } from '@flotilla/shared/billing/catalogue';
import {
  countsTowardBalance,
  creditExpiryYears,
  creditSalesThresholdCents,
  maxCreditPurchase,
  supportsCredits,
} from '@flotilla/shared/credits/credits';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import type { Plan } from './catalogue.js';
import { issueInvoice } from './invoices.js';
import type { PaymentProvider } from './payment-provider.js';
import { activeSubscription } from './subscriptions.js';

const creditFeatures: readonly string[] = [featureSlugs.device, featureSlugs.microservicesDevice];

// What one credit (a device for a month) costs on a plan: its additional-device price.
export const creditUnitCost = (plan: Plan, featureSlug: string): number =>
  featureSlug === featureSlugs.microservicesDevice
    ? plan.additionalMicroservicesDevicePrice
    : plan.additionalDevicePrice;

const featureSlugOf = async (db: Queryable, feature: unknown): Promise<string | undefined> => {
  if (typeof feature !== 'number') return undefined;
  const { rows } = await db.query<{ slug: string }>(
    'SELECT "slug" FROM "feature" WHERE "id" = $1',
    [feature],
  );
  return rows[0]?.slug;
};

const invoiceNumberOf = async (db: Queryable, id: number | undefined): Promise<string | null> => {
  if (id === undefined) return null;
  const { rows } = await db.query<{ invoice_number: string }>(
    'SELECT "invoice_number" FROM "invoice" WHERE "id" = $1',
    [id],
  );
  return rows[0]?.invoice_number ?? null;
};

// A POST of a credit_bundle (balena-sdk creditBundle.create) is a purchase: checked against the
// plan, priced at the plan's additional-device price, charged through the payment provider.
// A failed payment still records the bundle (failed, with the provider's message, no balance),
// as the console shows it.
export const registerCreditPurchaseHooks = (
  hooks: HookRegistry,
  options: { billingEnabled: boolean; provider: PaymentProvider },
): void => {
  hooks.add('credit_bundle', {
    beforeCreate: async (ctx, values) => {
      if (!options.billingEnabled) throw badRequest('Billing is not used on this installation');
      const organization = values.belongs_to__organization;
      const quantity = values.original_quantity;
      if (typeof organization !== 'number') throw badRequest('Organization is required');
      if (
        typeof quantity !== 'number' ||
        !Number.isInteger(quantity) ||
        quantity < 1 ||
        quantity > maxCreditPurchase
      ) {
        throw badRequest(
          `Credits to purchase must be a whole number from 1 to ${maxCreditPurchase}`,
        );
      }
      const slug = await featureSlugOf(ctx.tx, values.is_for__feature);
      if (slug === undefined || !creditFeatures.includes(slug)) {
        throw badRequest('Credits are sold for devices only');
      }
      const { plan } = await activeSubscription(ctx.tx, organization, ctx.now);
      if (!supportsCredits(plan.billingCode)) {
        throw badRequest(
          'Credits are only available on the Pilot, Production and Enterprise plans',
        );
      }
      const unitCost = creditUnitCost(plan, slug);
      const total = unitCost * quantity;
      if (total >= creditSalesThresholdCents) {
        throw badRequest('A purchase this large goes through sales: please contact sales');
      }
      const payment = await options.provider.purchaseCredits(organization, total);
      let invoice: string | null = null;
      if (payment.status === 'manually invoiced') {
        const issued = await issueInvoice(ctx.tx, {
          organization,
          now: ctx.now,
          periodStart: ctx.now,
          periodEnd: ctx.now,
          lines: [
            {
              code: `credits:${slug}`,
              description: `Device credits (${slug})`,
              quantity,
              unitCostCents: unitCost,
              amountCents: total,
            },
          ],
        });
        invoice = await invoiceNumberOf(ctx.tx, issued);
      }
      const balance = countsTowardBalance(payment.status) ? quantity : 0;
      const expires = new Date(ctx.now);
      expires.setUTCFullYear(expires.getUTCFullYear() + creditExpiryYears);
      Object.assign(values, {
        payment_status: payment.status,
        unit_cost: unitCost,
        total_cost: total,
        available_balance: balance,
        total_balance: balance,
        expires_on__date: expires,
        created_at: ctx.now,
        is_created_by__user: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
        is_associated_with__invoice_id: invoice,
        error_message: payment.status === 'failed' ? payment.message : null,
      });
    },
  });
};
