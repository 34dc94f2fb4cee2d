import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { defaultQueueExpiryHours } from '@flotilla/shared/devices/queued-actions';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { plural } from '../../device/device-format.js';
import type { ActionSpec } from './device-actions.js';
import { deviceActionsDocs } from './field-actions.js';
import { QueueChoice, type QueueState } from './QueueChoice.js';

const reasonCounts = (skipped: readonly { reason: string }[]): [string, number][] => {
  const counts = new Map<string, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts];
};

// Confirmation of a device action on one device or a selection. Deleting asks to type the
// device name (one device) or the count (several), as the seed's type-to-confirm dialog does.
export const ActionConfirmDialog = ({
  spec,
  names,
  skipped,
  pending,
  offline = 0,
  onConfirm,
  onClose,
}: {
  spec: ActionSpec | null;
  names: readonly string[];
  // Selected devices the action will not run on, and why.
  skipped: readonly { name: string; reason: string }[];
  pending: boolean;
  // How many of the devices are offline: they may queue the action (the user chooses).
  offline?: number;
  // queueHours: how long offline devices keep the action queued; undefined when not queued.
  onConfirm: (queueHours: number | undefined) => void;
  onClose: () => void;
}) => {
  const [queue, setQueue] = useState<QueueState>({
    queue: true,
    hours: defaultQueueExpiryHours,
  });
  const single = names.length === 1;
  const confirmText =
    spec?.id === 'delete' ? (single ? (names[0] ?? '') : String(names.length)) : undefined;
  return (
    <ConfirmDialog
      open={spec !== null}
      title={spec ? `${spec.title}${single ? '' : ` (${plural(names.length, 'device')})`}` : ''}
      items={names}
      confirmText={confirmText}
      confirmLabel={spec?.confirmLabel ?? 'Confirm'}
      destructive={spec?.destructive ?? false}
      pending={pending}
      onConfirm={() => onConfirm(offline > 0 && queue.queue ? queue.hours : undefined)}
      onClose={onClose}
    >
      <Typography>
        {spec?.blurb}{' '}
        <Link href={spec?.docs ?? deviceActionsDocs} target="_blank" rel="noreferrer">
          Documentation
        </Link>
      </Typography>
      {skipped.length > 0 ? (
        <Alert severity="info">
          {plural(skipped.length, 'selected device')} will be skipped:{' '}
          {reasonCounts(skipped)
            .map(([reason, count]) => `${reason} (${count})`)
            .join('; ')}
          .
        </Alert>
      ) : null}
      {offline > 0 ? <QueueChoice offline={offline} value={queue} onChange={setQueue} /> : null}
    </ConfirmDialog>
  );
};
