import { errorText } from '@flotilla/sdk/errors';
import { Button, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../../api/client.js';
import { classLabels } from '../../../fleet/class-names.js';
import { type FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { confirmListLimit } from '../../../ui/ConfirmDialog.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useLeaveFleet } from './useLeaveFleet.js';
import { fleetKeys } from '../../../fleet/query-keys.js';

// Delete the application and its devices, after typing its name.
export const DeleteFleet = ({
  application,
  denied,
}: {
  application: FleetDetail;
  denied: string | null;
}) => {
  const client = useClient();
  const leave = useLeaveFleet(application);
  const [open, setOpen] = useState(false);
  const label = classLabels[application.is_of__class].one.toLowerCase();
  const devices = application.owns__device;
  // The first devices, for the dialog's list of what goes with the application.
  const deviceNames = useQuery({
    queryKey: [...fleetKeys.detail(application.id), 'device-names'],
    enabled: open && devices > 0,
    queryFn: async () =>
      (
        await client.pine.get({
          resource: 'device',
          options: {
            $select: ['device_name'],
            $filter: { belongs_to__application: application.id },
            $orderby: { device_name: 'asc' },
            $top: confirmListLimit,
          },
        })
      ).map((device) => device.device_name),
  });
  const remove = useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async () => {
      await client.pine.delete({ resource: 'application', id: application.id });
    },
    onSuccess: leave,
  });
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
        title={`Delete ${label} ${application.app_name}?`}
        confirmText={application.app_name}
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
