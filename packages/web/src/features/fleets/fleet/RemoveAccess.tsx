import { errorText } from '@flotilla/sdk/errors';
import { Button } from '@mui/material';
import { useState } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useRemoveAccess } from './api-fleet.js';

// Leave the fleet: delete the user's own direct membership.
export const RemoveAccess = ({
  fleet,
  membershipId,
  denied,
}: {
  fleet: FleetDetail;
  membershipId: number;
  denied: string | null;
}) => {
  const [open, setOpen] = useState(false);
  const label = classLabels[fleet.is_of__class].one.toLowerCase();
  const remove = useRemoveAccess(fleet, membershipId);
  return (
    <SettingRow
      title="Remove my access"
      description={`Removes your own membership of this ${label}. Access through a team or the organization stays.`}
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
          Remove my access
        </Button>
      </DisabledReason>
      <ConfirmDialog
        open={open}
        title={`Remove your access to ${fleet.app_name}?`}
        confirmLabel="Remove access"
        destructive
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      >
        {`Your direct role on this ${label} is removed. Access through a team or your organization is not affected.`}
      </ConfirmDialog>
    </SettingRow>
  );
};
