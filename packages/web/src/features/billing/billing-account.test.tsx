// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerBilling, billingInvoices } from '../../test-support/billing-fixtures.js';
import { captureDownloads } from '../../test-support/downloads.js';
import { acmeId } from '../../test-support/organization-fixtures.js';
import { renderAt } from '../../test-support/render-organization.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const billingOn = { billingEnabled: true };
const pdfText = '%PDF-1.4 invoice FLT-000001';

describe('invoices and the billing account', { timeout: 60_000 }, () => {
  it('downloads an invoice PDF under its file name; a draft is not yet available', async () => {
    const downloads = captureDownloads();
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/invoices/FLT-000001/download`, () => ({
      status: 200,
      stream: new ReadableStream<Uint8Array>({
        start: (controller) => {
          controller.enqueue(new TextEncoder().encode(pdfText));
          controller.close();
        },
      }),
    }));
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(table).getByText('paid')).toBeTruthy();
    expect(within(table).getByText('draft')).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Download FLT-000002' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(table).getByRole('button', { name: 'Download FLT-000001' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]?.name).toBe('invoice-FLT-000001-2026-01-01.pdf');
    expect(downloads[0]?.type).toBe('application/pdf');
    expect(await downloads[0]?.text()).toBe(pdfText);
  });

  it('shows a failed download', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/invoices/FLT-000001/download`, () => ({
      status: 404,
      text: 'No invoice FLT-000001',
    }));
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await user.click(within(table).getByRole('button', { name: 'Download FLT-000001' }));
    expect(await screen.findByText(/No invoice FLT-000001/)).toBeTruthy();
  });

  it('shows the 6 latest invoices, and the rest after View all', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    const many = Array.from({ length: 8 }, (_unused, n) => ({
      ...billingInvoices[1],
      uuid: `u${n}`,
      invoice_number: `FLT-00001${n}`,
    }));
    api.on('GET', `/billing/v1/account/${acmeId}/invoices`, () => ({ status: 200, body: many }));
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(table).getAllByRole('row')).toHaveLength(7);
    await user.click(screen.getByRole('button', { name: 'View all (8)' }));
    expect(within(table).getAllByRole('row')).toHaveLength(9);
  });

  it('says there are no invoices yet', async () => {
    const { api } = renderAt(`/orgs/${acmeId}/billing`, 'administrator', undefined, billingOn);
    answerBilling(api, acmeId);
    api.on('GET', `/billing/v1/account/${acmeId}/invoices`, () => ({ status: 200, body: [] }));
    expect(await screen.findByText('No invoices yet.')).toBeTruthy();
  });

  it('edits company info, showing the server’s tax id refusal, then saves', async () => {
    const { api, user } = renderAt(
      `/orgs/${acmeId}/billing`,
      'administrator',
      undefined,
      billingOn,
    );
    answerBilling(api, acmeId);
    const sent: unknown[] = [];
    let refuse = true;
    api.on('PATCH', `/billing/v1/account/${acmeId}`, (body) => {
      sent.push(body);
      if (refuse) return { status: 400, text: 'Invalid tax id' };
      return {
        status: 200,
        body: {
          account_state: 'active',
          email: 'billing@acme.test',
          company_name: 'Acme Ltd',
          address: {},
          tax_id: { type: 'eu_vat', value: 'DE123456789', country: 'DE' },
        },
      };
    });
    await user.click(await screen.findByRole('button', { name: 'Edit company info' }));
    const dialog = await screen.findByRole('dialog', { name: 'Company info' });
    expect(within(dialog).getByText('Please fill out all required fields')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByLabelText(/Billing e-mail/), 'billing@acme.test');
    await user.type(within(dialog).getByLabelText('Company name'), 'Acme Ltd');
    await user.click(within(dialog).getByLabelText('Tax id type'));
    await user.click(await screen.findByRole('option', { name: 'DE – eu_vat' }));
    await user.type(within(dialog).getByLabelText('Tax id'), 'DE12');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Invalid tax id/)).toBeTruthy();
    expect(sent[0]).toMatchObject({
      email: 'billing@acme.test',
      company_name: 'Acme Ltd',
      tax_id: { type: 'eu_vat', country: 'DE', value: 'DE12' },
    });
    refuse = false;
    await user.clear(within(dialog).getByLabelText('Tax id'));
    await user.type(within(dialog).getByLabelText('Tax id'), 'DE123456789');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Billing info updated')).toBeTruthy();
    expect(await screen.findByText('Tax id: DE123456789 (eu_vat)')).toBeTruthy();
  });
});
