import type { HostUpdateActionId } from '@flotilla/shared/devices/device-action-permissions';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { plural } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { hostUpdateSpecs } from './host-update-actions.js';
import { SkippedNotice } from './SkippedNotice.js';

// What the OS and supervisor update dialogs share: the title (with the number of devices of a
// selection), the confirm button (with the batch's progress), what the action does with its
// documentation, and the devices left out below the form.
export const HostUpdateFrame = ({
  action,
  deviceCount,
  skipped,
  pending,
  progress,
  confirmDisabled,
  onConfirm,
  onClose,
  children,
}: {
  action: HostUpdateActionId;
  deviceCount: number;
  skipped: readonly { reason: string }[];
  pending: boolean;
  progress: { done: number; total: number } | null;
  confirmDisabled: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) => {
  const spec = hostUpdateSpecs[action];
  return (
    <ConfirmDialog
      open
      title={`${spec.title}${deviceCount === 1 ? '' : ` (${plural(deviceCount, 'device')})`}`}
      confirmLabel={progress ? `${progress.done} of ${progress.total}…` : spec.confirmLabel}
      confirmDisabled={confirmDisabled}
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Typography>
        {spec.blurb}{' '}
        <Link href={spec.docs} target="_blank" rel="noreferrer">
          Documentation
        </Link>
      </Typography>
      {children}
      <SkippedNotice skipped={skipped} />
    </ConfirmDialog>
  );
};
