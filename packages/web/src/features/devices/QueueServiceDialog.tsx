import Typography from '@mui/material/Typography';
import { defaultQueueExpiryHours } from '@flotilla/shared/devices/queued-actions';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { QueueExpiryField } from './QueueChoice.js';

// Starting, stopping or restarting a service of an offline device: the action waits for the
// device and runs when its connection comes back, unless it expires first.
export const QueueServiceDialog = ({
  title,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  // "Restart main", or null when closed.
  title: string | null;
  pending: boolean;
  error: string | null;
  onConfirm: (hours: number) => void;
  onClose: () => void;
}) => {
  const [hours, setHours] = useState(defaultQueueExpiryHours);
  return (
    <ConfirmDialog
      open={title !== null}
      title={title ?? ''}
      confirmLabel="Queue"
      pending={pending}
      error={error}
      onConfirm={() => onConfirm(hours)}
      onClose={onClose}
    >
      <Typography>
        The device is offline. The action waits for it and runs when it comes online; the device
        page lists it under Queued actions until then.
      </Typography>
      <QueueExpiryField hours={hours} onChange={setHours} />
    </ConfirmDialog>
  );
};
