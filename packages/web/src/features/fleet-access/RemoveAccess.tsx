import { errorText } from '@flotilla/sdk/errors';
import { grants, ownRowPermissions } from '@flotilla/shared/permissions/permissions';
import { Button } from '@mui/material';
import { useState } from 'react';
import { classLabels } from '../../fleet/class-names.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import type { FleetRoleState } from '../../fleet/api-fleet-role.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { SettingRow } from '../../ui/SettingRow.js';
import { useRemoveAccess } from './api-remove-access.js';

// Leave the fleet: delete the user's own direct membership. Nothing shows for a user whose access
// comes only through a team or the organization (there is no row of theirs to remove).
export const RemoveAccess = ({ fleet, access }: { fleet: FleetDetail; access: FleetRoleState }) =>
  access.directMembershipId === null ? null : (
    <RemoveAccessRow
      fleet={fleet}
      membershipId={access.directMembershipId}
      // Every user may remove their own rows, whatever their fleet role.
      denied={
        grants(ownRowPermissions, 'user_application_membership', 'delete')
          ? null
          : access.denied('user_application_membership', 'delete-own')
      }
    />
  );

const RemoveAccessRow = ({
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
