import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';

// A discount code stays with the organization across plan changes: it applies on each plan that
// has the code (the new plan's first period included, and stated by the preview), not on one
// that lacks it, and applies again on moving back. The unused time is credited at the
// discounted price that was paid for it.

let world: BillingWorld;
let db: Database;
let admin: number;
let platformAdmin: number;
let organization: number;
const call = (...args: Parameters<BillingWorld['call']>) => world.call(...args);
const latestLines = async () =>
  (
    await db.query<{ code: string; amount_cents: number }>(
      `SELECT l."code", l."amount_cents" FROM "invoice_line" l
       WHERE l."invoice" = (SELECT max("id") FROM "invoice" WHERE "organization" = $1)
       ORDER BY l."position"`,
      [organization],
    )
  ).rows;
const subscriptionCode = async () =>
  (
    await db.query<{ discount_code: string | null }>(
      `SELECT "discount_code" FROM "subscription" WHERE "is_for__organization" = $1 AND "is_active"`,
      [organization],
    )
  ).rows[0]?.discount_code;

beforeAll(async () => {
  world = await startBillingWorld({
    start: new Date('2026-06-01T12:00:00Z'),
    organizationName: 'Bargain',
  });
  ({ db, admin, platformAdmin, organization } = world);
  await db.query(
    `INSERT INTO "plan__has__discount_code" ("plan", "discount_code", "discount_percentage")
     SELECT "id", 'LOYAL', CASE "billing_code" WHEN 'pilot-v2' THEN 20 ELSE 10 END
     FROM "plan" WHERE "billing_code" IN ('pilot-v2', 'production-v2')`,
  );
  const put = await call(
    platformAdmin,
    'PUT',
    `/billing/v1/admin/organizations/${organization}/plan`,
    {
      billing_code: 'pilot-v2',
      discount_code: 'LOYAL',
    },
  );
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await world?.close();
});

describe('a discount code across plan changes', () => {
  it('applies on the new plan that has it, first period included, as the preview says', async () => {
    world.advanceDays(15);
    const preview = await call(
      admin,
      'GET',
      `/billing/v1/account/${organization}/plan/preview?tier=production-v2&cycle=monthly`,
    );
    const answer = preview.json<{
      discountCents: number;
      amountDueNowCents: number;
      proration: { unusedCreditCents: number; newChargeCents: number };
    }>();
    expect(answer.discountCents).toBe(12990);
    // Pilot was paid at 80%: half a month of 279.20.
    expect(answer.proration.unusedCreditCents).toBe(Math.round(27920 / 2));
    expect(answer.amountDueNowCents).toBe(129900 - 12990 - answer.proration.unusedCreditCents);
    const change = await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'production-v2',
    });
    expect(change.status).toBe(200);
    expect(await latestLines()).toContainEqual({ code: 'discount', amount_cents: -12990 });
    expect(await subscriptionCode()).toBe('LOYAL');
    // Straight back to Pilot: the whole Production month paid at 90% (1,169.10) exceeds Pilot's
    // discounted charge (349.00 - 69.80), and the preview says what the account keeps.
    const back = await call(
      admin,
      'GET',
      `/billing/v1/account/${organization}/plan/preview?tier=pilot-v2&cycle=monthly`,
    );
    expect(
      back.json<{ discountCents: number; proration: { carriedCreditCents: number } }>(),
    ).toMatchObject({ discountCents: 6980, proration: { carriedCreditCents: 116910 - 27920 } });
  });

  it('keeps the code on a plan without it, which bills in full, and applies it again back', async () => {
    await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'prototype-v2',
    });
    expect(await subscriptionCode()).toBe('LOYAL');
    expect((await latestLines()).map((line) => line.code)).not.toContain('discount');
    world.advanceDays(31);
    await call(admin, 'GET', `/billing/v1/account/${organization}/plan`);
    expect((await latestLines()).map((line) => line.code)).not.toContain('discount');
    await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, { tier: 'pilot-v2' });
    expect(await latestLines()).toContainEqual({ code: 'discount', amount_cents: -6980 });
    world.advanceDays(31);
    await call(admin, 'GET', `/billing/v1/account/${organization}/plan`);
    expect(await latestLines()).toContainEqual({ code: 'discount', amount_cents: -6980 });
  });
});
