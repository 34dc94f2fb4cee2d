import { errorText } from '@flotilla/sdk/errors';
import { type QueuedAction, queuedActionPermission } from '@flotilla/shared/devices/queued-actions';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { absoluteTime } from '../../device/device-format.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { MutationError } from '../../ui/MutationError.js';
import { useCancelQueued, useDeviceQueue } from './api-queued-actions.js';
import type { Denied } from './device-action-rules.js';
import { queuedActionText, queuedStatusLabels } from './queued-action-labels.js';

const Row = ({
  action,
  denied,
  cancel,
}: {
  action: QueuedAction;
  denied: Denied;
  cancel: ReturnType<typeof useCancelQueued>;
}) => {
  const [label, color] = queuedStatusLabels[action.status];
  const permission = queuedActionPermission(action.action);
  const refusal = denied(permission.resource, permission.action);
  return (
    <TableRow>
      <TableCell>{queuedActionText(action)}</TableCell>
      <TableCell>
        <Chip size="small" label={label} color={color} />
      </TableCell>
      <TableCell>{absoluteTime(action.createdAt)}</TableCell>
      <TableCell>
        {action.finishedAt
          ? absoluteTime(action.finishedAt)
          : `Expires ${absoluteTime(action.expiresAt)}`}
      </TableCell>
      <TableCell>{action.message ?? ''}</TableCell>
      <TableCell align="right">
        {action.status === 'queued' ? (
          <DisabledReason reason={refusal}>
            <Button
              size="small"
              disabled={refusal !== null || cancel.isPending}
              onClick={() => cancel.mutate(action.id)}
            >
              Cancel
            </Button>
          </DisabledReason>
        ) : null}
      </TableCell>
    </TableRow>
  );
};

// The actions queued for the device while it was offline, newest first, with their outcomes
// once it came back; nothing when the device never had one.
export const QueuedActionsCard = ({ deviceId, denied }: { deviceId: number; denied: Denied }) => {
  const queue = useDeviceQueue(deviceId);
  const cancel = useCancelQueued();
  if (queue.isPending) return null;
  if (queue.isError) {
    return (
      <Alert severity="error">
        Could not load the queued actions: {errorText(queue.error) ?? 'An error has occurred'}
      </Alert>
    );
  }
  if (queue.data.length === 0) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="queued-actions-title">
      <CardContent>
        <Typography id="queued-actions-title" variant="h6" component="h2">
          Queued actions
        </Typography>
        <MutationError error={cancel.error} fallback="Could not cancel the action" />
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Action</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Queued</TableCell>
              <TableCell>Finished or expires</TableCell>
              <TableCell>Message</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {queue.data.map((action) => (
              <Row key={action.id} action={action} denied={denied} cancel={cancel} />
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
};
