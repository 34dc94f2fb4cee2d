import { purchaseHistoryPageSize } from '@flotilla/shared/credits/credits';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadState } from '../../ui/LoadState.js';
import { useCreditBundles } from './api.js';
import { dollars } from './money.js';

// The credit bundles bought, newest first, five a page.
export const PurchaseHistory = ({ organizationId }: { organizationId: number }) => {
  const bundles = useCreditBundles(organizationId);
  const [page, setPage] = useState(0);
  const rows = bundles.data ?? [];
  const shown = rows.slice(page * purchaseHistoryPageSize, (page + 1) * purchaseHistoryPageSize);
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h3" sx={{ mb: 1 }}>
        Purchase history
      </Typography>
      <LoadState queries={[bundles]} what="purchase history" />
      {bundles.data === undefined ? null : rows.length === 0 ? (
        <Typography color="text.secondary">No credits bought yet.</Typography>
      ) : (
        <>
          <Table size="small" aria-label="Purchase history">
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell align="right">Credits</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Balance</TableCell>
                <TableCell align="right">Cost</TableCell>
                <TableCell>Bought by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((bundle) => (
                <TableRow key={bundle.id}>
                  <TableCell>{new Date(bundle.created_at).toLocaleDateString()}</TableCell>
                  <TableCell align="right">{bundle.original_quantity}</TableCell>
                  <TableCell title={bundle.error_message ?? undefined}>
                    {bundle.payment_status}
                  </TableCell>
                  <TableCell align="right">{bundle.total_balance}</TableCell>
                  <TableCell align="right">{dollars(bundle.total_cost)}</TableCell>
                  <TableCell>{bundle.is_created_by__user?.[0]?.username ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={rows.length}
            page={page}
            onPageChange={(_event, next) => setPage(next)}
            rowsPerPage={purchaseHistoryPageSize}
            rowsPerPageOptions={[purchaseHistoryPageSize]}
          />
        </>
      )}
    </Paper>
  );
};
