import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';
import { issueSessionToken } from '../auth/issue-session-token.js';

// An organization through its billing life over the server's clock: the free plan, an upgrade
// to prototype (invoiced at once), a period end with device overage, an upgrade with proration,
// an overdue invoice and a recorded payment, and the invoice PDF.

const day = 24 * 60 * 60 * 1000;
const advance = (days: number): void => world.advanceDays(days);

let world: BillingWorld;
let db: Database;
let admin: number;
let member: number;
let platformAdmin: number;
let organization: number;
let fleet: number;

const call = (...args: Parameters<BillingWorld['call']>) => world.call(...args);

type WireInvoice = {
  uuid: string;
  invoice_number: string;
  state: string;
  total_in_cents: string;
  created_at: string;
};
const invoices = async (): Promise<WireInvoice[]> => {
  const response = await call(admin, 'GET', `/billing/v1/account/${organization}/invoices`);
  expect(response.status).toBe(200);
  return response.json();
};

beforeAll(async () => {
  world = await startBillingWorld({
    start: new Date('2026-03-01T12:00:00Z'),
    organizationName: 'Acme',
  });
  ({ db, admin, member, platformAdmin, organization } = world);
  fleet = (await createFleet(db, organization, 'Things')).id;
});
afterAll(async () => {
  await world?.close();
});

describe('billing over a period', () => {
  it('starts an organization on the free plan, with nothing to pay', async () => {
    const plan = await call(admin, 'GET', `/billing/v1/account/${organization}/plan`);
    expect(plan.status).toBe(200);
    expect(plan.json()).toMatchObject({
      code: 'free',
      tier: 'free',
      intervalLength: '1',
      billingEnabled: true,
      isPaid: false,
    });
    expect(await invoices()).toEqual([]);
  });

  it('refuses a member without access_billing, and a plan that does not exist', async () => {
    for (const path of ['', '/plan', '/invoices', '/usage', '/info']) {
      expect((await call(member, 'GET', `/billing/v1/account/${organization}${path}`)).status).toBe(
        401,
      );
    }
    expect(
      (
        await call(member, 'PATCH', `/billing/v1/account/${organization}/plan`, {
          tier: 'pilot',
          annual: false,
        })
      ).status,
    ).toBe(401);
    const unknown = await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'gold',
      annual: false,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toBe('There is no plan gold');
    const sales = await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'enterprise',
      annual: false,
    });
    expect(sales.status).toBe(400);
  });

  it('keeps deactivation, the operator and limited roles from the free plan', async () => {
    const device = await createDevice(db, fleet, 'gated');
    const deactivate = () => call(admin, 'PATCH', `/v7/device(${device.id})`, { is_active: false });
    const roleId = async (name: string) =>
      (
        await db.query<{ id: number }>(
          `SELECT "id" FROM "application_membership_role" WHERE "name" = $1`,
          [name],
        )
      ).rows[0]?.id;
    const grant = async (role: string) =>
      call(admin, 'POST', '/v7/user_application_membership', {
        user: member,
        is_member_of__application: fleet,
        application_membership_role: await roleId(role),
      });
    const setPlan = (code: string) =>
      db.query(
        `UPDATE "subscription" SET "is_for__plan" = (SELECT "id" FROM "plan" WHERE "billing_code" = $2)
         WHERE "is_for__organization" = $1 AND "is_active"`,
        [organization, code],
      );

    const refused = await deactivate();
    expect(refused.status).toBe(400);
    expect(refused.body).toBe('Upgrade your plan to enable deactivation');
    const operator = await grant('operator');
    expect(operator.status).toBe(400);
    expect(operator.body).toBe('Upgrade your plan to use the operator role');
    expect((await grant('safe-developer')).body).toBe('Upgrade your plan to use limited roles');
    // A paid plan without the preview add-on: operators yes, limited roles no.
    await setPlan('pilot-v2');
    expect((await grant('safe-operator')).body).toBe(
      'Limited roles need the safe roles preview add-on',
    );
    expect((await grant('operator')).status).toBe(201);
    expect((await deactivate()).status).toBe(200);

    await setPlan('free');
    await db.query(`DELETE FROM "user_application_membership" WHERE "user" = $1`, [member]);
    await db.query(`DELETE FROM "device" WHERE "id" = $1`, [device.id]);
  });

  it('invoices an upgrade at once and bills device overage at the period end', async () => {
    advance(9);
    const preview = await call(
      admin,
      'GET',
      `/billing/v1/account/${organization}/plan/preview?tier=prototype&cycle=monthly`,
    );
    expect(preview.json()).toMatchObject({ kind: 'upgrade', amountDueNowCents: 9900 });
    const upgrade = await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'prototype',
      annual: false,
    });
    expect(upgrade.status).toBe(200);
    const first = await invoices();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ state: 'open', total_in_cents: '9900' });
    expect(first[0]?.invoice_number).toMatch(/^FLT-\d{6}$/);

    // 25 devices (of a multi-container fleet) on a plan including 20: 5 over at $3.00 a month.
    for (let n = 0; n < 25; n += 1) await createDevice(db, fleet, `device-${n}`);
    const usage = await call(admin, 'GET', `/billing/v1/account/${organization}/usage`);
    expect(usage.json()).toMatchObject({
      currentUsage: { 'device:any': 25, 'member:administrator': 1, 'member:member': 1 },
      overage: { 'device:microservices': 5 },
      charges: { 'prototype-v2': 9900, 'device:microservices': 1500 },
    });
    // Back to 10 devices before the period ends: the period's peak still counts.
    await db.query(
      `DELETE FROM "device" WHERE "id" IN (SELECT "id" FROM "device" ORDER BY "id" LIMIT 15)`,
    );

    advance(31);
    const second = await invoices();
    expect(second).toHaveLength(2);
    expect(second[0]).toMatchObject({ state: 'open', total_in_cents: String(1500 + 9900) });
  });

  it('credits the unused part of the period on a further upgrade', async () => {
    const plan = await call(admin, 'GET', `/billing/v1/account/${organization}/plan`);
    const { currentPeriodEndDate } = plan.json<{ currentPeriodEndDate: string }>();
    const periodEnd = new Date(currentPeriodEndDate).getTime();
    // Exactly half of a 30-day period (April 10 to May 10) left.
    world.setNow(new Date(periodEnd - 15 * day));
    const upgrade = await call(admin, 'PATCH', `/billing/v1/account/${organization}/plan`, {
      tier: 'pilot-v2',
      annual: false,
      planChangeReason: 'Growing',
    });
    expect(upgrade.json()).toMatchObject({
      kind: 'upgrade',
      proration: { unusedCreditCents: 4950, newChargeCents: 34900 },
    });
    const [latest] = await invoices();
    expect(latest?.total_in_cents).toBe(String(34900 - 4950));
    expect(
      (await call(admin, 'GET', `/billing/v1/account/${organization}/plan`)).json(),
    ).toMatchObject({ code: 'pilot-v2', tier: 'pilot', isPaid: true });
  });

  it('marks an unpaid invoice past due, and a recorded payment settles it', async () => {
    advance(31);
    const all = await invoices();
    const overdue = all.filter((invoice) => invoice.state === 'past_due');
    expect(overdue.length).toBeGreaterThan(0);
    const { rows } = await db.query<{ since: Date | null }>(
      `SELECT "has_past_due_invoice_since__date" AS "since" FROM "organization" WHERE "id" = $1`,
      [organization],
    );
    expect(rows[0]?.since).not.toBeNull();

    expect(
      (
        await call(admin, 'POST', `/billing/v1/admin/invoices/${overdue[0]?.uuid}/payments`, {
          reference: 'x',
        })
      ).status,
    ).toBe(401);
    for (const invoice of all.filter((i) => i.state !== 'paid')) {
      const paid = await call(
        platformAdmin,
        'POST',
        `/billing/v1/admin/invoices/${invoice.uuid}/payments`,
        { reference: 'Bank transfer 42' },
      );
      expect(paid.status).toBe(200);
    }
    expect((await invoices()).every((invoice) => invoice.state === 'paid')).toBe(true);
    const after = await db.query<{ since: Date | null }>(
      `SELECT "has_past_due_invoice_since__date" AS "since" FROM "organization" WHERE "id" = $1`,
      [organization],
    );
    expect(after.rows[0]?.since).toBeNull();
  });

  it('downloads an invoice as a PDF named with its number and date', async () => {
    const [latest] = await invoices();
    if (!latest) throw new Error('no invoice');
    const download = await call(
      admin,
      'GET',
      `/billing/v1/account/${organization}/invoices/${latest.invoice_number}/download`,
    );
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${latest.invoice_number}-${latest.created_at.slice(0, 10)}.pdf"`,
    );
    expect(download.body.startsWith('%PDF-')).toBe(true);
    expect(
      (await call(admin, 'GET', `/billing/v1/account/${organization}/invoices/FLT-999999/download`))
        .status,
    ).toBe(404);
  });

  it('keeps company info and refuses an invalid tax id', async () => {
    const bad = await call(admin, 'PATCH', `/billing/v1/account/${organization}`, {
      email: 'billing@acme.example',
      tax_id: { type: 'eu_vat', value: 'DE12' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toBe('Invalid tax id');
    const good = await call(admin, 'PATCH', `/billing/v1/account/${organization}`, {
      email: 'billing@acme.example',
      company_name: 'Acme GmbH',
      address: { city: 'Berlin', country: 'DE' },
      tax_id: { type: 'eu_vat', value: 'de 123456789' },
    });
    expect(good.status).toBe(200);
    expect((await call(admin, 'GET', `/billing/v1/account/${organization}`)).json()).toEqual({
      account_state: 'active',
      email: 'billing@acme.example',
      company_name: 'Acme GmbH',
      address: { city: 'Berlin', country: 'DE' },
      tax_id: { type: 'eu_vat', value: 'DE123456789', country: 'DE' },
    });
  });

  it('answers payment-method calls clearly with the manual provider', async () => {
    expect((await call(admin, 'GET', `/billing/v1/account/${organization}/info`)).json()).toEqual(
      {},
    );
    const intent = await call(
      admin,
      'POST',
      `/billing/v1/account/${organization}/setup-intent`,
      {},
    );
    expect(intent.status).toBe(400);
    expect(intent.body).toMatch(/^No card payment provider/);
    expect((await call(admin, 'DELETE', `/billing/v1/account/${organization}/info`)).status).toBe(
      400,
    );
  });
});

describe('billing off', () => {
  it('puts every organization on an unlimited custom plan and changes nothing', async () => {
    const offCtx = createTestContext(db, { config: { billingEnabled: false }, now: world.now });
    const off = buildServer(offCtx);
    await off.ready();
    try {
      const token = await issueSessionToken(offCtx, db, (await createUser(db, 'solo')).userId);
      const own = await createOrganization(db, 'Solo');
      const { rows } = await db.query<{ id: number }>(
        `SELECT "id" FROM "user" WHERE "username" = 'solo'`,
      );
      await addOrganizationMember(db, rows[0]?.id ?? 0, own, 'administrator');
      const get = (url: string) =>
        off.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect((await get(`/billing/v1/account/${own}/plan`)).json()).toMatchObject({
        code: 'custom',
        billingEnabled: false,
        billing: { totalCostCents: '0' },
      });
      expect((await get(`/billing/v1/account/${own}/invoices`)).json()).toEqual([]);
      expect((await get(`/billing/v1/account/${own}/can-access-support`)).json()).toBe(true);
      const change = await off.inject({
        method: 'PATCH',
        url: `/billing/v1/account/${own}/plan`,
        headers: { authorization: `Bearer ${token}` },
        payload: { tier: 'pilot', annual: false },
      });
      expect(change.statusCode).toBe(400);
      const { rows: subscriptions } = await db.query(
        `SELECT 1 FROM "subscription" WHERE "is_for__organization" = $1`,
        [own],
      );
      expect(subscriptions).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
