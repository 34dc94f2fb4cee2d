import { errorText } from '@flotilla/sdk/errors';
import { Alert, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../../api/client.js';
import { useSession } from '../../../api/session/useSession.js';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import { organizationAcceptsFleets } from '../../../fleet/fleet-role.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './useUpdateFleet.js';

type OrganizationRow = {
  id: number;
  name: string;
  organization_membership: { organization_membership_role: { name: string }[] }[];
  application: { app_name: string }[];
};

export const noTargetsText = 'no organizations with matching resource name';

// Organizations that may receive the application: another organization whose role of the user
// allows creating applications there, holding no application of the same name.
export const transferTargets = (
  rows: readonly OrganizationRow[],
  application: Pick<FleetDetail, 'app_name' | 'organization'>,
): { id: number; name: string }[] =>
  rows
    .filter(
      (row) =>
        row.id !== application.organization[0]?.id &&
        row.organization_membership.some((membership) =>
          organizationAcceptsFleets(membership.organization_membership_role[0]?.name ?? ''),
        ) &&
        !row.application.some(
          (other) => other.app_name.toLowerCase() === application.app_name.toLowerCase(),
        ),
    )
    .map(({ id, name }) => ({ id, name }));

// Move the application to another organization (shown only to holders of application.transfer).
export const TransferOwnership = ({ application }: { application: FleetDetail }) => {
  const client = useClient();
  const session = useSession();
  const userId = session?.userId ?? 0;
  const update = useUpdateFleet(application.id);
  const [chosen, setChosen] = useState<number | ''>('');
  const [confirming, setConfirming] = useState(false);
  const label = classLabels[application.is_of__class].one.toLowerCase();
  const organizations = useQuery({
    queryKey: ['organizations', 'memberships-with-applications', userId],
    enabled: userId > 0,
    queryFn: () =>
      client.pine.get({
        resource: 'organization',
        options: {
          $select: ['id', 'name'],
          $filter: {
            organization_membership: {
              $any: { $alias: 'm', $expr: { m: { user: userId } } },
            },
          },
          $expand: {
            organization_membership: {
              $select: ['id'],
              $filter: { user: userId },
              $expand: { organization_membership_role: { $select: ['name'] } },
            },
            application: { $select: ['app_name'] },
          },
          $orderby: { name: 'asc' },
        },
      }),
  });
  const targets = organizations.data ? transferTargets(organizations.data, application) : [];
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
        title={`Transfer ${application.app_name} to ${target?.name ?? ''}?`}
        confirmText={application.app_name}
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
