import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { plural } from '../../device/device-format.js';
import type { ActionSpec } from './device-actions.js';
import { deviceActionsDocs } from './field-actions.js';

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
  onConfirm,
  onClose,
}: {
  spec: ActionSpec | null;
  names: readonly string[];
  // Selected devices the action will not run on, and why.
  skipped: readonly { name: string; reason: string }[];
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
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
      onConfirm={onConfirm}
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
    </ConfirmDialog>
  );
};
