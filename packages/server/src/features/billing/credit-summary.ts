import { featureSlugs } from '@flotilla/shared/billing/catalogue';
import {
  creditSalesThresholdCents,
  maxCreditPurchase,
  supportsCredits,
} from '@flotilla/shared/credits/credits';
import type { Database } from '../../infra/db/database.js';
import { getBillingInfo } from './billing-account.js';
import { settleOrganization } from './billing-engine.js';
import { creditBalance } from './credit-ledger.js';
import { creditUnitCost } from './credit-purchase.js';
import type { PaymentProvider } from './payment-provider.js';

// What the credits page shows: balance, the plan's allowance and the organization's devices
// (for the runway), the price of a credit, and whether a purchase can be made at all.
export type CreditSummary = {
  billingEnabled: boolean;
  balance: number;
  planCode: string;
  planTitle: string;
  supportsCredits: boolean;
  includedDevices: number;
  deviceCount: number;
  // The feature credits are bought for (the multi-container device, the dearer kind).
  featureId: number | null;
  unitCostCents: number;
  salesThresholdCents: number;
  maxPurchase: number;
  // The manual provider invoices purchases (paid by bank transfer); a card provider needs a
  // payment method first.
  hasPaymentMethod: boolean;
};

export const creditSummary = async (
  db: Database,
  organization: number,
  now: Date,
  provider: PaymentProvider,
): Promise<CreditSummary> => {
  const subscription = await settleOrganization(db, organization, now);
  const { rows } = await db.query<{ feature: number | null; devices: number }>(
    `SELECT (SELECT "id" FROM "feature" WHERE "slug" = $2) AS "feature",
       (SELECT count(*)::integer FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
        WHERE a."organization" = $1 AND d."is_active") AS "devices"`,
    [organization, featureSlugs.microservicesDevice],
  );
  const method = await getBillingInfo(db, organization);
  const { plan } = subscription;
  return {
    billingEnabled: true,
    balance: await creditBalance(db, organization, now),
    planCode: plan.billingCode,
    planTitle: plan.title,
    supportsCredits: supportsCredits(plan.billingCode),
    includedDevices: plan.features[featureSlugs.device] ?? 0,
    deviceCount: rows[0]?.devices ?? 0,
    featureId: rows[0]?.feature ?? null,
    unitCostCents: creditUnitCost(plan, featureSlugs.microservicesDevice),
    salesThresholdCents: creditSalesThresholdCents,
    maxPurchase: maxCreditPurchase,
    hasPaymentMethod: provider.name === 'manual' || 'type' in method,
  };
};

export const creditsNotUsed: CreditSummary = {
  billingEnabled: false,
  balance: 0,
  planCode: 'custom',
  planTitle: 'Custom',
  supportsCredits: false,
  includedDevices: 0,
  deviceCount: 0,
  featureId: null,
  unitCostCents: 0,
  salesThresholdCents: creditSalesThresholdCents,
  maxPurchase: maxCreditPurchase,
  hasPaymentMethod: false,
};
