import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingWorld, startBillingWorld } from '../../test-support/billing-world.js';

// US sales tax over the billing engine: platform administrators set the rates per state, an
// organization billed at a California address sees the tax in a plan change's preview, and its
// invoice carries a tax line, the tax in the API and in the PDF; an address outside the US is
// not taxed.

let world: BillingWorld;
const account = (path = '') => `/billing/v1/account/${world.organization}${path}`;

// The text a PDF of pdfkit shows: its compressed content streams, whose strings are hex.
const pdfText = (pdf: Buffer): string => {
  const raw = pdf.toString('latin1');
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) {
      texts.push(Buffer.from(hex[1] ?? '', 'hex').toString('latin1'));
    }
  }
  return texts.join('');
};

beforeAll(async () => {
  world = await startBillingWorld({
    start: new Date('2026-04-01T12:00:00Z'),
    organizationName: 'Taxed',
  });
});
afterAll(async () => {
  await world?.close();
});

describe('US sales tax', () => {
  it('is set per state by platform administrators only, with valid states and rates', async () => {
    const { call, admin, platformAdmin } = world;
    expect((await call(admin, 'PUT', '/billing/v1/admin/sales-tax', { rates: {} })).status).toBe(
      401,
    );
    expect((await call(admin, 'GET', '/billing/v1/admin/sales-tax')).status).toBe(401);
    const unknown = await call(platformAdmin, 'PUT', '/billing/v1/admin/sales-tax', {
      rates: { XX: 5 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('XX is not a US state code');
    const tooHigh = await call(platformAdmin, 'PUT', '/billing/v1/admin/sales-tax', {
      rates: { CA: 101 },
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body).toContain('The rate of CA must be a percentage');
    const set = await call(platformAdmin, 'PUT', '/billing/v1/admin/sales-tax', {
      rates: { CA: 7.25, NY: 8.875 },
    });
    expect(set.status).toBe(200);
    expect(set.json()).toEqual({ rates: { CA: 7.25, NY: 8.875 } });
    expect((await call(platformAdmin, 'GET', '/billing/v1/admin/sales-tax')).json()).toEqual({
      rates: { CA: 7.25, NY: 8.875 },
    });
  });

  it('is stated in the preview and charged on the invoice of a US address', async () => {
    const { call, admin } = world;
    const info = await call(admin, 'PATCH', account(), {
      email: 'billing@taxed.example',
      address: {
        address1: '1 Market St',
        city: 'San Francisco',
        state: 'California',
        country: 'US',
      },
    });
    expect(info.status).toBe(200);
    const preview = await call(
      admin,
      'GET',
      account('/plan/preview?tier=prototype-v2&cycle=monthly'),
    );
    expect(preview.status).toBe(200);
    // 7.25 % of $99.00 is $7.1775: 718 cents.
    expect(preview.json()).toMatchObject({
      kind: 'upgrade',
      taxCents: 718,
      taxDescription: 'Sales tax (CA, 7.25%)',
      amountDueNowCents: 9900 + 718,
    });
    const changed = await call(admin, 'PATCH', account('/plan'), { tier: 'prototype-v2' });
    expect(changed.status).toBe(200);
    const [invoice] = (await call(admin, 'GET', account('/invoices'))).json<
      {
        invoice_number: string;
        subtotal_in_cents: string;
        tax_in_cents: string;
        total_in_cents: string;
      }[]
    >();
    expect(invoice).toMatchObject({
      subtotal_in_cents: '9900',
      tax_in_cents: '718',
      total_in_cents: '10618',
    });
    const { rows: lines } = await world.db.query<{
      code: string;
      description: string;
      amount_cents: number;
    }>(
      `SELECT l."code", l."description", l."amount_cents" FROM "invoice_line" l
       JOIN "invoice" i ON i."id" = l."invoice" WHERE i."invoice_number" = $1 ORDER BY l."position"`,
      [invoice?.invoice_number ?? ''],
    );
    expect(lines.at(-1)).toEqual({
      code: 'tax',
      description: 'Sales tax (CA, 7.25%)',
      amount_cents: 718,
    });
    const pdf = await call(
      admin,
      'GET',
      account(`/invoices/${invoice?.invoice_number ?? ''}/download`),
    );
    expect(pdf.status).toBe(200);
    const text = pdfText(pdf.raw);
    expect(text).toContain('Sales tax (CA, 7.25%)');
    expect(text).toContain('USD 7.18');
    expect(text).toContain('USD 106.18');
  });

  it('is not added for an address outside the US', async () => {
    const { call, admin } = world;
    await call(admin, 'PATCH', account(), {
      email: 'billing@taxed.example',
      address: { city: 'Berlin', state: 'Berlin', country: 'DE' },
    });
    const preview = await call(
      admin,
      'GET',
      account('/plan/preview?tier=prototype-v2&cycle=annual'),
    );
    expect(preview.json()).toMatchObject({
      kind: 'cycle-change',
      taxCents: 0,
      taxDescription: null,
    });
    expect(
      (await call(admin, 'PATCH', account('/plan'), { tier: 'prototype-v2', annual: true })).status,
    ).toBe(200);
    const [invoice] = (await call(admin, 'GET', account('/invoices'))).json<
      { tax_in_cents: string }[]
    >();
    expect(invoice?.tax_in_cents).toBe('0');
  });
});
