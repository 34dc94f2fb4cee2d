import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { useRedeliver, useWebhookDeliveries } from './api.js';

const statusColor = {
  succeeded: 'success',
  failed: 'error',
  pending: 'warning',
  delivering: 'info',
} as const;

// The endpoint's latest deliveries, with the receiver's answer; a finished one can be sent again.
export const DeliveriesTable = ({
  organizationId,
  endpointId,
}: {
  organizationId: number;
  endpointId: number;
}) => {
  const deliveries = useWebhookDeliveries(organizationId, endpointId);
  const redeliver = useRedeliver(organizationId, endpointId);
  if (deliveries.data === undefined) {
    return <LoadState queries={[deliveries]} what="deliveries" />;
  }
  if (deliveries.data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        No deliveries yet: they appear here as events happen.
      </Typography>
    );
  }
  return (
    <>
      <MutationError error={redeliver.error} fallback="Could not deliver it again" />
      <Table size="small" aria-label="Deliveries" sx={{ mt: 2 }}>
        <TableHead>
          <TableRow>
            <TableCell>Event</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Response</TableCell>
            <TableCell>Attempts</TableCell>
            <TableCell>Created</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.data.map((delivery) => (
            <TableRow key={delivery.id}>
              <TableCell>{delivery.eventType}</TableCell>
              <TableCell>
                <Chip size="small" color={statusColor[delivery.status]} label={delivery.status} />
              </TableCell>
              <TableCell title={delivery.responseBody ?? delivery.lastError ?? ''}>
                {delivery.responseStatus ?? delivery.lastError ?? '—'}
              </TableCell>
              <TableCell>{delivery.attempts}</TableCell>
              <TableCell>{new Date(delivery.createdAt).toLocaleString()}</TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  disabled={
                    redeliver.isPending ||
                    delivery.status === 'pending' ||
                    delivery.status === 'delivering'
                  }
                  onClick={() => redeliver.mutate(delivery.id)}
                >
                  Redeliver
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
};
