import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import {
  createDevice,
  createFleet,
  createOrganization,
  createRelease,
} from '../../test-support/fixtures.js';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';
import { runBillingSweep } from './register-billing-admin.js';

// Credits, discount codes and freezing over the server's clock: a purchase through the manual
// provider (invoiced), credits paying for devices over the allowance at the period end, a
// discount code on the plan's price, a low-credit mail, and an organization past due frozen at
// day 60 and unfrozen by its payment; the hourly sweep doing the same for an organization nobody
// looks at.

const day = 24 * 60 * 60 * 1000;

let world: BillingWorld;
let db: Database;
let ctx: AppContext;
let admin: number;
let member: number;
let platformAdmin: number;
let organization: number;
let quiet: number;
let fleet: number;
let microservicesFeature: number;

const call = (...args: Parameters<BillingWorld['call']>) => world.call(...args);

const sweep = () => runBillingSweep(ctx, 'http://console.test');
const frozen = async (id: number) =>
  (
    await db.query<{ is_frozen: boolean; since: Date | null }>(
      `SELECT "is_frozen", "has_past_due_invoice_since__date" AS "since" FROM "organization" WHERE "id" = $1`,
      [id],
    )
  ).rows[0];
const purchase = (userId: number, quantity: number, feature = microservicesFeature) =>
  call(userId, 'POST', '/v7/credit_bundle', {
    belongs_to__organization: organization,
    is_for__feature: feature,
    original_quantity: quantity,
  });

beforeAll(async () => {
  world = await startBillingWorld({
    start: new Date('2026-03-01T12:00:00Z'),
    organizationName: 'Acme',
  });
  ({ db, ctx, admin, member, platformAdmin, organization } = world);
  quiet = await createOrganization(db, 'Quiet');
  fleet = (await createFleet(db, organization, 'Things')).id;
  microservicesFeature =
    (
      await db.query<{ id: number }>(
        `SELECT "id" FROM "feature" WHERE "slug" = 'device:microservices'`,
      )
    ).rows[0]?.id ?? 0;
  await db.query(
    `INSERT INTO "plan__has__discount_code" ("plan", "discount_code", "discount_percentage")
     SELECT "id", 'LAUNCH20', 20 FROM "plan" WHERE "billing_code" = 'pilot-v2'`,
  );
});
afterAll(async () => {
  await world?.close();
});

describe('credits', () => {
  it('refuses credits on a plan without them', async () => {
    const refused = await purchase(admin, 5);
    expect(refused.status).toBe(400);
    expect(refused.body).toBe(
      'Credits are only available on the Pilot, Production and Enterprise plans',
    );
  });

  it('puts an organization on a plan with a discount code of that plan only', async () => {
    const unknown = await call(
      platformAdmin,
      'PUT',
      `/billing/v1/admin/organizations/${organization}/plan`,
      {
        billing_code: 'pilot-v2',
        discount_code: 'NOPE',
      },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toBe('There is no discount code NOPE for this plan');
    for (const id of [organization, quiet]) {
      const put = await call(platformAdmin, 'PUT', `/billing/v1/admin/organizations/${id}/plan`, {
        billing_code: 'pilot-v2',
        discount_code: 'LAUNCH20',
      });
      expect(put.status).toBe(200);
    }
  });

  it('sells credits through the manual provider: recorded and invoiced', async () => {
    const bought = await purchase(admin, 10);
    expect(bought.status).toBe(201);
    const [bundle] = (
      await call(
        admin,
        'GET',
        `/v7/credit_bundle?$filter=belongs_to__organization eq ${organization}`,
      )
    ).json<{ d: { is_associated_with__invoice_id: string; expires_on__date: string }[] }>().d;
    expect(bundle).toMatchObject({
      payment_status: 'manually invoiced',
      original_quantity: 10,
      total_balance: 10,
      unit_cost: 200,
      total_cost: 2000,
      is_created_by__user: { __id: admin },
    });
    expect(bundle?.is_associated_with__invoice_id).toMatch(/^FLT-\d{6}$/);
    expect(new Date(bundle?.expires_on__date ?? '').getUTCFullYear()).toBe(2036);
    const invoices = (
      await call(admin, 'GET', `/billing/v1/account/${organization}/invoices`)
    ).json<{ invoice_number: string; total_in_cents: string }[]>();
    expect(invoices).toEqual([
      expect.objectContaining({
        invoice_number: bundle?.is_associated_with__invoice_id,
        state: 'open',
        total_in_cents: '2000',
      }),
    ]);
    const summary = (
      await call(admin, 'GET', `/billing/v1/account/${organization}/credits`)
    ).json();
    expect(summary).toMatchObject({
      billingEnabled: true,
      balance: 10,
      supportsCredits: true,
      includedDevices: 50,
      unitCostCents: 200,
      featureId: microservicesFeature,
      hasPaymentMethod: true,
    });
  });

  it('refuses bad quantities, other features and purchases for sales', async () => {
    expect((await purchase(admin, 0)).status).toBe(400);
    expect((await purchase(admin, 100_001)).status).toBe(400);
    const members = (
      await db.query<{ id: number }>(`SELECT "id" FROM "feature" WHERE "slug" = 'member:any'`)
    ).rows[0]?.id;
    expect((await purchase(admin, 5, members)).body).toBe('Credits are sold for devices only');
    expect((await purchase(admin, 5000)).body).toBe(
      'A purchase this large goes through sales: please contact sales',
    );
  });

  it('gives a member without billing access nothing', async () => {
    expect((await purchase(member, 5)).status).toBe(401);
    const read = await call(
      member,
      'GET',
      `/v7/credit_bundle?$filter=belongs_to__organization eq ${organization}`,
    );
    expect(read.json<{ d: unknown[] }>().d).toEqual([]);
    expect((await call(member, 'GET', `/billing/v1/account/${organization}/credits`)).status).toBe(
      401,
    );
    const notify = await call(member, 'POST', '/v7/organization_credit_notification', {
      organization,
      owns_credit_notification_for__feature: microservicesFeature,
      is_sent_when_below__threshold: 5,
    });
    expect(notify.status).toBe(401);
    expect((await db.query(`SELECT 1 FROM "credit_bundle"`)).rowCount).toBe(1);
  });

  it('spends credits on devices over the allowance and takes the discount off the plan', async () => {
    // 52 devices of a multi-container fleet on a plan including 50: 2 device-months over.
    for (let n = 0; n < 52; n += 1) await createDevice(db, fleet, `device-${n}`);
    await call(admin, 'GET', `/billing/v1/account/${organization}/usage`);
    world.setNow(new Date(world.now().getTime() + 31 * day));
    const invoices = (
      await call(admin, 'GET', `/billing/v1/account/${organization}/invoices`)
    ).json<{ invoice_number: string; total_in_cents: string }[]>();
    expect(invoices).toHaveLength(2);
    const { rows: lines } = await db.query<{
      code: string;
      quantity: number;
      amount_cents: number;
    }>(
      `SELECT l."code", l."quantity", l."amount_cents" FROM "invoice_line" l
       JOIN "invoice" i ON i."id" = l."invoice" WHERE i."invoice_number" = $1 ORDER BY l."position"`,
      [invoices[0]?.invoice_number ?? ''],
    );
    expect(lines).toEqual([
      { code: 'device:microservices', quantity: 2, amount_cents: 400 },
      { code: 'credits:device:microservices', quantity: 2, amount_cents: -400 },
      { code: 'pilot-v2', quantity: 1, amount_cents: 34900 },
      { code: 'discount', quantity: 1, amount_cents: -6980 },
    ]);
    expect(invoices[0]?.total_in_cents).toBe('27920');
    const summary = (
      await call(admin, 'GET', `/billing/v1/account/${organization}/credits`)
    ).json();
    expect(summary).toMatchObject({ balance: 8, deviceCount: 52 });
  });

  it('mails the administrators once when the balance falls below their threshold', async () => {
    const created = await call(admin, 'POST', '/v7/organization_credit_notification', {
      organization,
      owns_credit_notification_for__feature: microservicesFeature,
      is_sent_when_below__threshold: 9,
    });
    expect(created.status).toBe(201);
    await db.query('DELETE FROM "mail_message"');
    await sweep();
    await sweep();
    const { rows } = await db.query<{ recipient: string; subject: string; text_body: string }>(
      'SELECT "recipient", "subject", "text_body" FROM "mail_message"',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject).toBe('Acme: credits are running low');
    expect(rows[0]?.text_body).toContain(`http://console.test/orgs/${organization}/credits`);
  });
});

describe('freezing', () => {
  it('freezes at day 60 past due, stops new releases, and unfreezes on payment', async () => {
    const before = await frozen(organization);
    const since = before?.since;
    if (!since) throw new Error('expected a past-due date');
    world.setNow(new Date(since.getTime() + 59 * day));
    await sweep();
    expect((await frozen(organization))?.is_frozen).toBe(false);
    world.setNow(new Date(since.getTime() + 60 * day));
    await sweep();
    expect((await frozen(organization))?.is_frozen).toBe(true);
    const { rows: devices } = await db.query<{ is_frozen: boolean }>(
      `SELECT "is_frozen" FROM "device" WHERE "belongs_to__application" = $1`,
      [fleet],
    );
    expect(devices.every((device) => device.is_frozen)).toBe(true);
    const release = await call(admin, 'POST', '/v7/release', {
      belongs_to__application: fleet,
      commit: 'abcdef0123456789',
      status: 'running',
      source: 'cloud',
      composition: {},
    });
    expect(release.status).toBe(400);
    expect(release.body).toBe(
      'This organization is frozen: its devices get no new releases until its past-due invoices are paid',
    );
    const pinned = await createRelease(db, fleet, 'old-release');
    expect(
      (
        await call(admin, 'PATCH', `/v7/application(${fleet})`, {
          should_be_running__release: pinned,
        })
      ).status,
    ).toBe(400);

    const { rows: unpaid } = await db.query<{ uuid: string }>(
      `SELECT "uuid" FROM "invoice" WHERE "organization" = $1 AND "state" IN ('open', 'past_due')`,
      [organization],
    );
    for (const invoice of unpaid) {
      const paid = await call(
        platformAdmin,
        'POST',
        `/billing/v1/admin/invoices/${invoice.uuid}/payments`,
        {
          reference: 'Bank transfer',
        },
      );
      expect(paid.status).toBe(200);
    }
    expect(await frozen(organization)).toEqual({ is_frozen: false, since: null });
    const { rows: after } = await db.query<{ is_frozen: boolean }>(
      `SELECT "is_frozen" FROM "device" WHERE "belongs_to__application" = $1`,
      [fleet],
    );
    expect(after.some((device) => device.is_frozen)).toBe(false);
  });

  it('freezes an organization nobody looks at from the sweep alone', async () => {
    const state = await frozen(quiet);
    const since = state?.since;
    if (!since)
      throw new Error('expected the sweep to have marked the quiet organization past due');
    expect(state?.is_frozen).toBe(world.now().getTime() >= since.getTime() + 60 * day);
    world.setNow(new Date(since.getTime() + 60 * day));
    await sweep();
    expect((await frozen(quiet))?.is_frozen).toBe(true);
  });
});
