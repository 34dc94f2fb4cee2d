import { describe, expect, it } from 'vitest';
import { invoiceFileName, invoiceToneOf, isDownloadable } from './invoices.js';

describe('invoice states', () => {
  it("shows each state with its tone, older engines' states included", () => {
    for (const state of ['paid', 'void', 'voided', 'closed'])
      expect(invoiceToneOf(state)).toBe('success');
    for (const state of ['pending', 'processing', 'open', 'draft'])
      expect(invoiceToneOf(state)).toBe('in-progress');
    expect(invoiceToneOf('past_due')).toBe('past-due');
    for (const state of ['failed', 'uncollectible', 'anything'])
      expect(invoiceToneOf(state)).toBe('error');
  });

  it('keeps drafts from download', () => {
    expect(isDownloadable('draft')).toBe(false);
    expect(isDownloadable('open')).toBe(true);
  });

  it('names the PDF with the invoice number and its creation date', () => {
    expect(invoiceFileName('FLT-000042', new Date('2026-04-10T23:59:00Z'))).toBe(
      'invoice-FLT-000042-2026-04-10.pdf',
    );
  });
});
