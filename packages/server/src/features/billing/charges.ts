import {
  type BillingCycle,
  cycleMonths,
  featureSlugs,
  seatPriceCents,
  seatRoles,
} from '@flotilla/shared/billing/catalogue';
import { periodPriceCents } from '@flotilla/shared/billing/plan-change';
import type { Plan } from './catalogue.js';

// Metered quantities by item key: device:any (active devices), device:microservices (those of
// them in multi-container fleets), device:frozen, member:<seat role>.
export type Usage = Record<string, number>;

export type ChargeLine = {
  code: string;
  itemType: 'plan' | 'device' | 'member';
  name: string;
  quantity: number;
  unitCostCents: number;
  amountCents: number;
  isQuantifiable: boolean;
};

export type Charges = { lines: ChargeLine[]; overage: Usage; totalCents: number };

const count = (usage: Usage, key: string): number => Math.max(usage[key] ?? 0, 0);

const seatLabel: Record<string, string> = {
  administrator: 'Organization administrator',
  member: 'Organization member',
  'safe-developer': 'Limited developer',
  'safe-operator': 'Limited operator',
};
const titleCase = (role: string): string => role.charAt(0).toUpperCase() + role.slice(1);

// Devices over the plan's included quantity; the included devices cover multi-container devices
// first (the dearer kind).
const deviceOverage = (plan: Plan, usage: Usage): { plain: number; microservices: number } => {
  const included = plan.features[featureSlugs.device] ?? 0;
  const microservices = count(usage, featureSlugs.microservicesDevice);
  const plain = Math.max(count(usage, featureSlugs.device) - microservices, 0);
  const microservicesOver = Math.max(microservices - included, 0);
  const includedLeft = Math.max(included - microservices, 0);
  return { plain: Math.max(plain - includedLeft, 0), microservices: microservicesOver };
};

// Members over the plan's included count (at least one); the included seats cover the dearest
// roles first.
const seatOverage = (plan: Plan, usage: Usage): Partial<Record<string, number>> => {
  let includedLeft = Math.max(plan.features[featureSlugs.member] ?? 1, 1);
  const byPrice = [...seatRoles].sort((a, b) => seatPriceCents[b] - seatPriceCents[a]);
  const over: Partial<Record<string, number>> = {};
  for (const role of byPrice) {
    const members = count(usage, `member:${role}`);
    const covered = Math.min(members, includedLeft);
    includedLeft -= covered;
    if (members - covered > 0) over[role] = members - covered;
  }
  return over;
};

// What a period of the plan costs with this usage (peak usage for a period that ended).
export const computeCharges = (plan: Plan, cycle: BillingCycle, usage: Usage): Charges => {
  const months = cycleMonths[cycle];
  const lines: ChargeLine[] = [];
  const base = periodPriceCents(plan, cycle);
  lines.push({
    code: plan.billingCode,
    itemType: 'plan',
    name: `${plan.title} plan (${cycle})`,
    quantity: 1,
    unitCostCents: base,
    amountCents: base,
    isQuantifiable: false,
  });
  const overage: Usage = {};
  const devices = deviceOverage(plan, usage);
  const deviceLine = (code: string, name: string, quantity: number, monthly: number): void => {
    if (quantity <= 0 || monthly <= 0) return;
    overage[code] = quantity;
    const unit = monthly * months;
    lines.push({
      code,
      itemType: 'device',
      name,
      quantity,
      unitCostCents: unit,
      amountCents: unit * quantity,
      isQuantifiable: true,
    });
  };
  deviceLine(featureSlugs.device, 'Additional device', devices.plain, plan.additionalDevicePrice);
  deviceLine(
    featureSlugs.microservicesDevice,
    'Additional microservices device',
    devices.microservices,
    plan.additionalMicroservicesDevicePrice,
  );
  if (plan.billsSeats) {
    for (const [role, quantity = 0] of Object.entries(seatOverage(plan, usage))) {
      const price = seatRoles.find((known) => known === role);
      const unit = price === undefined ? 0 : seatPriceCents[price] * months;
      if (unit <= 0 || quantity <= 0) continue;
      overage[`member:${role}`] = quantity;
      lines.push({
        code: `member:${role}`,
        itemType: 'member',
        name: seatLabel[role] ?? titleCase(role),
        quantity,
        unitCostCents: unit,
        amountCents: unit * quantity,
        isQuantifiable: true,
      });
    }
  }
  return { lines, overage, totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0) };
};

// Per-key maximum of several usage records (the peak of a period's days).
export const peakOf = (records: readonly Usage[]): Usage => {
  const peak: Usage = {};
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) peak[key] = Math.max(peak[key] ?? 0, value);
  }
  return peak;
};
