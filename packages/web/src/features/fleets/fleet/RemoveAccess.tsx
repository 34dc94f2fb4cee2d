import { errorText } from '@flotilla/sdk/errors';
import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../../api/client.js';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useLeaveFleet } from './useLeaveFleet.js';

// Leave the application: delete the user's own direct membership.
export const RemoveAccess = ({
  application,
  membershipId,
  denied,
}: {
  application: FleetDetail;
  membershipId: number;
  denied: string | null;
}) => {
  const client = useClient();
  const leave = useLeaveFleet(application);
  const [open, setOpen] = useState(false);
  const label = classLabels[application.is_of__class].one.toLowerCase();
  const remove = useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async () => {
      await client.pine.delete({ resource: 'user_application_membership', id: membershipId });
    },
    onSuccess: leave,
  });
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
        title={`Remove your access to ${application.app_name}?`}
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
