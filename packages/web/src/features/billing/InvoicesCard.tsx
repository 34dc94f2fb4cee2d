import { errorText } from '@flotilla/sdk/errors';
import { invoiceFileName, invoiceToneOf, isDownloadable } from '@flotilla/shared/billing/invoices';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { downloadBlob } from '../../ui/download.js';
import { LoadState } from '../../ui/LoadState.js';
import { useDownloadInvoice, useInvoices } from './api.js';
import type { Invoice } from './billing-types.js';
import { dollars, shortDate } from './format.js';
import { SectionCard } from './SectionCard.js';

// The card shows the latest invoices; View all shows the rest.
export const invoiceCardSize = 6;

const toneColor = {
  success: 'success',
  'in-progress': 'info',
  'past-due': 'warning',
  error: 'error',
} as const;

const StateChip = ({ invoice }: { invoice: Invoice }) => {
  const tone = invoiceToneOf(invoice.state);
  const label =
    tone === 'past-due'
      ? `Past due since ${shortDate(invoice.due_on)}`
      : invoice.state.replace('_', ' ');
  return <Chip size="small" color={toneColor[tone]} label={label} />;
};

export const InvoicesCard = ({ organizationId }: { organizationId: number }) => {
  const invoices = useInvoices(organizationId);
  const download = useDownloadInvoice(organizationId);
  const [all, setAll] = useState(false);
  const rows = invoices.data ?? [];
  const shown = all ? rows : rows.slice(0, invoiceCardSize);
  const save = (invoice: Invoice) =>
    download.mutate(invoice.invoice_number, {
      onSuccess: (blob) =>
        downloadBlob(blob, invoiceFileName(invoice.invoice_number, new Date(invoice.created_at))),
    });
  return (
    <SectionCard
      title="Invoices"
      action={
        !all && rows.length > invoiceCardSize ? (
          <Button size="small" onClick={() => setAll(true)}>
            View all ({rows.length})
          </Button>
        ) : null
      }
    >
      <LoadState queries={[invoices]} what="invoices" />
      {download.isError ? (
        <Alert severity="error" sx={{ mb: 1 }} onClose={() => download.reset()}>
          {errorText(download.error) ?? 'Could not retrieve the invoice'}
        </Alert>
      ) : null}
      {invoices.data && rows.length === 0 ? (
        <Typography color="text.secondary">No invoices yet.</Typography>
      ) : null}
      {rows.length > 0 ? (
        <Table size="small" aria-label="Invoices">
          <TableHead>
            <TableRow>
              <TableCell>Invoice</TableCell>
              <TableCell>Date</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell>State</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((invoice) => (
              <TableRow key={invoice.uuid}>
                <TableCell>{invoice.invoice_number}</TableCell>
                <TableCell>{shortDate(invoice.created_at)}</TableCell>
                <TableCell align="right">{dollars(invoice.total_in_cents)}</TableCell>
                <TableCell>
                  <StateChip invoice={invoice} />
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={isDownloadable(invoice.state) ? '' : 'Not yet available'}>
                    <span>
                      <Button
                        size="small"
                        disabled={!isDownloadable(invoice.state) || download.isPending}
                        aria-label={`Download ${invoice.invoice_number}`}
                        onClick={() => save(invoice)}
                      >
                        PDF
                      </Button>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </SectionCard>
  );
};
