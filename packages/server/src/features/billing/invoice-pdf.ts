import PDFDocument from 'pdfkit';
import type { Invoice, InvoiceLine } from './invoices.js';

const money = (cents: number, currency: string): string =>
  `${cents < 0 ? '-' : ''}${currency} ${(Math.abs(cents) / 100).toFixed(2)}`;
const day = (date: Date): string => date.toISOString().slice(0, 10);

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

// The bill-to block from the account as it was when the invoice was issued.
const billToLines = (billTo: Record<string, unknown>): string[] => {
  const address =
    typeof billTo.address === 'object' && billTo.address !== null ? billTo.address : {};
  const field = (name: string): string => textOf(Reflect.get(address, name));
  const taxId =
    typeof billTo.tax_id === 'object' && billTo.tax_id !== null ? billTo.tax_id : undefined;
  return [
    textOf(billTo.company_name),
    textOf(billTo.email),
    field('address1'),
    field('address2'),
    [field('zip'), field('city'), field('state')].filter(Boolean).join(' '),
    field('country'),
    taxId ? `Tax id: ${textOf(Reflect.get(taxId, 'value'))}` : '',
  ].filter((line) => line !== '');
};

// The invoice as a PDF document (pdfkit's standard fonts; no file is read or written).
export const renderInvoicePdf = (
  invoice: Invoice,
  lines: readonly InvoiceLine[],
  issuer: string,
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      info: { Title: `Invoice ${invoice.invoiceNumber}`, Author: issuer },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.fontSize(20).text(`Invoice ${invoice.invoiceNumber}`);
    doc.moveDown(0.5).fontSize(10);
    doc.text(`Issued by ${issuer}`);
    doc.text(`Issued on ${day(invoice.createdAt)}, due on ${day(invoice.dueOn)}`);
    doc.text(`Period ${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`);
    doc.text(`State: ${invoice.state.replace('_', ' ')}`);
    const billTo = billToLines(invoice.billTo);
    if (billTo.length > 0) {
      doc.moveDown().fontSize(11).text('Bill to').fontSize(10);
      for (const line of billTo) doc.text(line);
    }
    doc.moveDown().fontSize(11).text('Item', 50, doc.y, { continued: false });
    doc.fontSize(10);
    for (const line of lines) {
      const y = doc.y + 4;
      doc.text(line.description, 50, y, { width: 300 });
      doc.text(String(line.quantity), 360, y, { width: 40, align: 'right' });
      doc.text(money(line.amountCents, invoice.currency), 410, y, { width: 130, align: 'right' });
    }
    doc.moveDown();
    const totals: [string, number][] = [
      ['Subtotal', invoice.subtotalCents],
      ['Tax', invoice.taxCents],
      ['Total', invoice.totalCents],
    ];
    for (const [label, cents] of totals) {
      const y = doc.y + 2;
      doc.text(label, 300, y, { width: 100 });
      doc.text(money(cents, invoice.currency), 410, y, { width: 130, align: 'right' });
    }
    doc.end();
  });
