import { periodEndOf, periodPriceCents } from '@flotilla/shared/billing/plan-change';
import type { Queryable } from '../../infra/db/database.js';
import { planByCode } from '../billing/catalogue.js';
import { issueInvoice, recordPayment } from '../billing/invoices.js';
import { startSubscription } from '../billing/subscriptions.js';

// The demo organization on an installation that bills: Pilot, annual, its first year invoiced
// and paid. A paid plan lets the demo show what the free plan refuses (operator roles, device
// deactivation) and sells credits; paid a year ahead, nothing falls due (and nothing freezes)
// for the next thirteen months.
export const seedDemoBilling = async (
  tx: Queryable,
  organization: number,
  now: Date,
): Promise<void> => {
  const plan = await planByCode(tx, 'pilot-v2');
  if (!plan) return;
  await startSubscription(tx, organization, plan, 'annual', now, null, 'admin');
  const price = periodPriceCents(plan, 'annual');
  const invoice = await issueInvoice(tx, {
    organization,
    now,
    periodStart: now,
    periodEnd: periodEndOf(now, 'annual'),
    lines: [
      {
        code: plan.billingCode,
        description: `${plan.title} plan (annual), first period`,
        quantity: 1,
        unitCostCents: price,
        amountCents: price,
      },
    ],
  });
  const { rows } = await tx.query<{ uuid: string }>(
    'SELECT "uuid" FROM "invoice" WHERE "id" = $1',
    [invoice ?? 0],
  );
  const uuid = rows[0]?.uuid;
  if (uuid !== undefined) await recordPayment(tx, uuid, 'Demo: paid at start', now);
};
