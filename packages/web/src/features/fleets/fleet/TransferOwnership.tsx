import { errorText } from '@flotilla/sdk/errors';
import { Alert, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useSession } from '../../../api/session/useSession.js';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { organizationAcceptsFleets } from '../../../fleet/fleet-role.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './api-fleet.js';
import { useTransferOrganizations } from './api-fleet-settings.js';

type OrganizationRow = {
  id: number;
  name: string;
  organization_membership: { organization_membership_role: { name: string }[] }[];
  application: { app_name: string }[];
};

export const noTargetsText = 'no organizations with matching resource name';

// Organizations that may receive the fleet: another organization whose role of the user
// allows creating fleets there, holding no fleet of the same name.
export const transferTargets = (
  rows: readonly OrganizationRow[],
  fleet: Pick<FleetDetail, 'app_name' | 'organization'>,
): { id: number; name: string }[] =>
  rows
    .filter(
      (row) =>
        row.id !== fleet.organization[0]?.id &&
        row.organization_membership.some((membership) =>
          organizationAcceptsFleets(membership.organization_membership_role[0]?.name ?? ''),
        ) &&
        !row.application.some(
          (other) => other.app_name.toLowerCase() === fleet.app_name.toLowerCase(),
        ),
    )
    .map(({ id, name }) => ({ id, name }));

// Move the fleet to another organization (shown only to holders of application.transfer).
export const TransferOwnership = ({ fleet }: { fleet: FleetDetail }) => {
  const session = useSession();
  const userId = session?.userId ?? 0;
  const update = useUpdateFleet(fleet.id);
  const [chosen, setChosen] = useState<number | ''>('');
  const [confirming, setConfirming] = useState(false);
  const label = classLabels[fleet.is_of__class].one.toLowerCase();
  const organizations = useTransferOrganizations(userId);
  const targets = organizations.data ? transferTargets(organizations.data, fleet) : [];
  const target = targets.find((organization) => organization.id === chosen);
  return (
    <SettingRow
      title="Transfer ownership"
      description={`Move this ${label} to another organization you administer.`}
    >
      <Stack spacing={1}>
        {organizations.isSuccess && targets.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {noTargetsText}
          </Typography>
        ) : (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              select
              size="small"
              fullWidth
              label="New organization"
              value={target ? target.id : ''}
              onChange={(event) => setChosen(Number(event.target.value))}
              disabled={organizations.isPending || update.isPending}
            >
              {targets.map((organization) => (
                <MenuItem key={organization.id} value={organization.id}>
                  {organization.name}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              color="error"
              disabled={!target || update.isPending}
              onClick={() => {
                update.reset();
                setConfirming(true);
              }}
            >
              Transfer
            </Button>
          </Stack>
        )}
        {organizations.isError ? (
          <Alert severity="warning">
            {errorText(organizations.error) ?? 'Could not load your organizations'}
          </Alert>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={`Transfer ${fleet.app_name} to ${target?.name ?? ''}?`}
        confirmText={fleet.app_name}
        confirmLabel="Transfer"
        destructive
        pending={update.isPending}
        error={update.isError ? errorText(update.error) : null}
        onConfirm={() => {
          if (target)
            update.mutate({ organization: target.id }, { onSuccess: () => setConfirming(false) });
        }}
        onClose={() => setConfirming(false)}
      >
        {`The current owner loses access to this ${label} after the transfer, unless they also belong to ${target?.name ?? 'the new organization'}.`}
      </ConfirmDialog>
    </SettingRow>
  );
};
