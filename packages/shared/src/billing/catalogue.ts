// The business constants of billing: cycles, tier codes, feature slugs, seat roles and their
// prices. Prices are in cents. The plans themselves are data (the server's catalogue tables).

export const billingCycles = ['monthly', 'annual'] as const;
export type BillingCycle = (typeof billingCycles)[number];
export const isBillingCycle = (value: unknown): value is BillingCycle =>
  billingCycles.some((cycle) => cycle === value);

export const freePlanCode = 'free';
export const customPlanCode = 'custom';

export const tierCodes = [
  'custom',
  'enterprise',
  'free',
  'org',
  'pilot',
  'production',
  'prototype',
  'solo',
  'unknown',
] as const;
export type TierCode = (typeof tierCodes)[number];

// A plan's billing code without its version suffix ("pilot-v2" is the pilot tier).
export const tierCodeOf = (billingCode: string): TierCode => {
  const stripped = billingCode.replace(/-v\d+$/, '');
  return tierCodes.find((tier) => tier === stripped) ?? 'unknown';
};

export const featureSlugs = {
  device: 'device:any',
  microservicesDevice: 'device:microservices',
  member: 'member:any',
  saml: 'saml_access',
  safeRolesPreview: 'safe-roles-preview-addon',
} as const;

export const seatRoles = [
  'administrator',
  'developer',
  'safe-developer',
  'operator',
  'safe-operator',
  'observer',
  'member',
] as const;
export type SeatRole = (typeof seatRoles)[number];
export const isSeatRole = (value: unknown): value is SeatRole =>
  seatRoles.some((role) => role === value);

// Per member per month; observers (and plain members, who only read) are free.
export const seatPriceCents: Record<SeatRole, number> = {
  administrator: 4900,
  developer: 4900,
  'safe-developer': 4900,
  operator: 2900,
  'safe-operator': 2900,
  observer: 0,
  member: 0,
};

// Interval of a cycle in months, as the plan's intervalLength says it.
export const cycleMonths: Record<BillingCycle, number> = { monthly: 1, annual: 12 };

// Prototype-like plans bill devices over their included quantity.
export const isPrototypeLike = (billingCode: string): boolean =>
  ['25m', '75m', '150m'].includes(billingCode) || billingCode.startsWith('prototype');

// An organization on the free plan, as Add device warns about it: the device allowance, the
// devices counted against it and those frozen over it.
export type FreeAllowance = { allowance: number; devices: number; frozen: number };
