// Invoice states the engine issues, how the console shows each, and the download's file name.
export const invoiceStates = [
  'draft',
  'open',
  'paid',
  'past_due',
  'void',
  'uncollectible',
] as const;
export type InvoiceState = (typeof invoiceStates)[number];

export type InvoiceTone = 'success' | 'in-progress' | 'past-due' | 'error';

// States of balena's older engine included, since the console shows both.
export const invoiceToneOf = (state: string): InvoiceTone => {
  if (['paid', 'voided', 'void', 'closed'].includes(state)) return 'success';
  if (['pending', 'processing', 'open', 'draft'].includes(state)) return 'in-progress';
  if (state === 'past_due') return 'past-due';
  return 'error';
};

// Drafts are not yet available for download.
export const isDownloadable = (state: string): boolean => state !== 'draft';

// Days an issued invoice is due in.
export const invoiceDueDays = 30;

export const invoiceFileName = (invoiceNumber: string, createdAt: Date): string =>
  `invoice-${invoiceNumber}-${createdAt.toISOString().slice(0, 10)}.pdf`;
