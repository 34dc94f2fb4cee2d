// The business constants of credits: one credit covers one device for one month, bought in
// bundles on the plans that support them, spent on devices over the plan's allowance.

export const creditPlanCodes = ['pilot-v2', 'production-v2', 'enterprise-v2'] as const;
export const supportsCredits = (billingCode: string): boolean =>
  creditPlanCodes.some((code) => code === billingCode);

export const creditPaymentStatuses = [
  'processing',
  'paid',
  'failed',
  'complimentary',
  'cancelled',
  'refunded',
  'manually invoiced',
] as const;
export type CreditPaymentStatus = (typeof creditPaymentStatuses)[number];

// Only these statuses count toward the balance.
export const balanceStatuses: readonly CreditPaymentStatus[] = [
  'paid',
  'complimentary',
  'manually invoiced',
];
export const countsTowardBalance = (status: string): boolean =>
  balanceStatuses.some((counted) => counted === status);

export const creditExpiryYears = 10;
// The most credits one purchase may ask for.
export const maxCreditPurchase = 100_000;
// A purchase costing this much or more goes to sales instead (in cents: $10,000).
export const creditSalesThresholdCents = 1_000_000;

export const runwayMaxMonths = 120;
export const runwayDefaultMonths = 12;
export const runwayDefaultEstimate = 1;
export const purchaseHistoryPageSize = 5;

export type RunwayInput = {
  currentDevices: number;
  estimatedDevices: number;
  includedDevices: number;
  months: number;
  balance: number;
};

const whole = (value: number): number =>
  Number.isFinite(value) ? Math.max(Math.floor(value), 0) : 0;

// Credits to add to cover the devices over the plan's allowance for the months asked:
// ceil((current + estimated - included) x months / 2) - balance, never below 0.
export const additionalCreditsNeeded = (input: RunwayInput): number => {
  const months = Math.min(whole(input.months), runwayMaxMonths);
  const over =
    whole(input.currentDevices) + whole(input.estimatedDevices) - whole(input.includedDevices);
  return Math.max(Math.ceil((over * months) / 2) - whole(input.balance), 0);
};

// The default low-credit threshold: twice the device count.
export const defaultCreditThreshold = (deviceCount: number): number => whole(deviceCount) * 2;
