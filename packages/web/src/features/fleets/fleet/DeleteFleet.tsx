import { errorText } from '@flotilla/sdk/errors';
import { Button, Typography } from '@mui/material';
import { useState } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
import { type FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useDeleteFleet } from './api-fleet.js';
import { useFleetDeviceNames } from './api-fleet-settings.js';

// Delete the fleet and its devices, after typing its name.
export const DeleteFleet = ({ fleet, denied }: { fleet: FleetDetail; denied: string | null }) => {
  const [open, setOpen] = useState(false);
  const label = classLabels[fleet.is_of__class].one.toLowerCase();
  const devices = fleet.owns__device;
  const deviceNames = useFleetDeviceNames(fleet.id, open && devices > 0);
  const remove = useDeleteFleet(fleet);
  return (
    <SettingRow
      title={`Delete ${label}`}
      description={`Deletes the ${label}, its devices and releases. This cannot be undone.`}
    >
      <DisabledReason reason={denied}>
        <Button
          variant="outlined"
          color="error"
          disabled={denied !== null}
          onClick={() => {
            remove.reset();
            setOpen(true);
          }}
        >
          Delete {label}
        </Button>
      </DisabledReason>
      <ConfirmDialog
        open={open}
        title={`Delete ${label} ${fleet.app_name}?`}
        confirmText={fleet.app_name}
        confirmLabel={`Delete ${label}`}
        destructive
        items={deviceNames.data ?? []}
        itemCount={devices}
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      >
        <Typography>
          {devices > 0
            ? `Deleting this ${label} also deletes its ${devices} device${devices === 1 ? '' : 's'}, and cannot be undone.`
            : `Deleting this ${label} cannot be undone.`}
        </Typography>
      </ConfirmDialog>
    </SettingRow>
  );
};
