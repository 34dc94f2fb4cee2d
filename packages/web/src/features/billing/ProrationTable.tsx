import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PlanPreview } from './billing-types.js';
import { dollars } from './format.js';

// Current versus new plan and the proration the change states: the unused part of the current
// period credited, the new plan's first period and the overage so far charged now.
export const ProrationTable = ({
  currentTitle,
  preview,
}: {
  currentTitle: string;
  preview: PlanPreview | undefined;
}) => {
  if (!preview) return null;
  const { proration } = preview;
  const rows: [string, string][] = [
    ['Current plan', currentTitle],
    ['New plan', `${preview.target.title} (${preview.cycle})`],
  ];
  if (preview.kind !== 'none' && preview.kind !== 'contact-sales') {
    rows.push([
      `${preview.target.title}, first ${preview.cycle === 'annual' ? 'year' : 'month'}`,
      dollars(proration.newChargeCents),
    ]);
    if ((preview.discountCents ?? 0) > 0) {
      rows.push(['Your discount on it', `−${dollars(preview.discountCents ?? 0)}`]);
    }
    if (proration.unusedCreditCents > 0) {
      rows.push([
        'Unused time on the current plan (credited)',
        `−${dollars(proration.unusedCreditCents)}`,
      ]);
    }
    if (preview.overageCents > 0) {
      rows.push(['Usage over the current plan so far', dollars(preview.overageCents)]);
    }
    if ((preview.taxCents ?? 0) > 0) {
      rows.push([preview.taxDescription ?? 'Sales tax', dollars(preview.taxCents ?? 0)]);
    }
    rows.push(['Due now', dollars(preview.amountDueNowCents)]);
    if (proration.carriedCreditCents > 0) {
      rows.push(['Credit kept for your next invoice', dollars(proration.carriedCreditCents)]);
    }
  }
  return (
    <>
      <Table size="small" aria-label="Plan change">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell align="right" sx={label === 'Due now' ? { fontWeight: 600 } : undefined}>
                {value}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {preview.kind !== 'none' && preview.kind !== 'contact-sales' ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          The change takes effect at once and starts a new billing period today; an invoice is
          issued for the amount due now.
        </Typography>
      ) : null}
    </>
  );
};
