import type { BillingCycle } from '@flotilla/shared/billing/catalogue';
import type { PlanChangeKind, Proration } from '@flotilla/shared/billing/plan-change';

// The answers of /billing/v1/account/:id/... the billing page reads.

export type Charge = {
  itemType: string;
  name: string;
  code: string;
  unitCostCents: string;
  quantity: string;
  isQuantifiable: boolean;
};

export type CurrentPlan = {
  title: string;
  code: string;
  tier: string;
  intervalLength: string;
  currentPeriodEndDate?: string;
  billing: { currency: string; totalCostCents: string; charges: Charge[] };
  addonPlan: { addOns: { code: string; quantity: string }[] };
  support: { name: string; title: string };
  features: string[];
  isPaid: boolean;
  billingEnabled: boolean;
};

export type Usage = {
  periodStart?: string;
  periodEnd?: string;
  currentUsage: Record<string, number>;
  peakUsage: Record<string, number>;
  overage: Record<string, number>;
  charges: Record<string, number>;
};

export type Address = Partial<
  Record<'address1' | 'address2' | 'city' | 'state' | 'zip' | 'country' | 'phone', string>
>;
export type TaxId = { type: string; value: string; country?: string };

export type AccountInfo = {
  account_state: string;
  email?: string;
  company_name?: string;
  address: Address;
  tax_id: TaxId | null;
};

export type AccountInfoInput = {
  email: string;
  company_name: string;
  address: Address;
  tax_id: { type: string; value: string; country: string } | null;
};

// Empty (no `type`) when the organization has no payment method.
export type PaymentMethod = {
  type?: string;
  last_four?: string;
  card_type?: string;
  month?: string;
  year?: string;
};

export type Invoice = {
  uuid: string;
  invoice_number: string;
  created_at: string;
  due_on: string;
  state: string;
  total_in_cents: string;
};

export type PlanPreview = {
  kind: PlanChangeKind;
  target: { title: string; billingCode: string; monthlyPrice: number; annualPrice: number };
  cycle: BillingCycle;
  proration: Proration;
  overageCents: number;
  // The organization's discount on the new plan's first period (absent from older servers).
  discountCents?: number;
  // US sales tax included in the amount due now, and its line ("Sales tax (CA, 7.25%)").
  taxCents?: number;
  taxDescription?: string | null;
  amountDueNowCents: number;
  freeAllowanceExceeded: boolean;
};

export type PlanChoice = { code: string; cycle: BillingCycle };
