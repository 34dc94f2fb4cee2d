import { errorText } from '@flotilla/sdk/errors';
import { grants, ownRowPermissions } from '@flotilla/shared/permissions/permissions';
import { Alert, Box, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { type ReactNode, useId } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ApplicationTypeSetting } from './ApplicationTypeSetting.js';
import { DefaultReleaseSelector } from './DefaultReleaseSelector.js';
import { DeleteFleet } from './DeleteFleet.js';
import { DeviceTypeSetting } from './DeviceTypeSetting.js';
import { RemoveAccess } from './RemoveAccess.js';
import { RenameSetting } from './RenameSetting.js';
import { RepositorySettings } from './RepositorySettings.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { SupportAccessSetting } from './SupportAccessSetting.js';
import { TransferOwnership } from './TransferOwnership.js';
import { useFleetRole } from '../../../fleet/api-fleet-role.js';

const Section = ({
  title,
  danger = false,
  children,
}: {
  title: string;
  danger?: boolean;
  children: ReactNode;
}) => {
  const titleId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ px: 3, py: 1, ...(danger ? { borderColor: 'error.main' } : {}) }}
    >
      <Typography
        id={titleId}
        variant="h3"
        component="h2"
        color={danger ? 'error' : undefined}
        sx={{ pt: 2 }}
      >
        {title}
      </Typography>
      {children}
    </Paper>
  );
};

// Every setting of a fleet, each gated by the shared permission table: transfer is hidden unless
// held and "remove my access" needs a direct membership. A member who may not change the fleet
// sees only "remove my access", not a page of disabled controls.
export const FleetSettings = ({ fleet }: { fleet: FleetDetail }) => {
  const access = useFleetRole(fleet.id);
  const update = access.denied('application', 'update');
  const pinnable = fleet.is_of__class !== 'app';
  const leave =
    access.directMembershipId !== null ? (
      <RemoveAccess
        fleet={fleet}
        membershipId={access.directMembershipId}
        // Every user may leave (own rows), whatever their fleet role.
        denied={
          grants(ownRowPermissions, 'user_application_membership', 'delete')
            ? null
            : access.denied('user_application_membership', 'delete-own')
        }
      />
    ) : null;
  if (access.isPending || access.error) {
    return access.error ? (
      <Alert severity="error">
        {errorText(access.error) ?? 'Could not check your permissions'}
      </Alert>
    ) : (
      <LinearProgress aria-label="Checking your permissions" />
    );
  }
  if (update !== null) {
    return (
      <Section title="Danger zone" danger>
        {leave}
        <Box sx={{ pb: 1 }} />
      </Section>
    );
  }
  return (
    <Stack spacing={3}>
      <Section title="Settings">
        <RenameSetting fleet={fleet} denied={update} />
        <SupportAccessSetting fleet={fleet} denied={update} />
        {pinnable ? (
          <SettingRow
            title="Default release"
            description="Track the latest successful release, or pin every device to one release."
          >
            <DefaultReleaseSelector fleet={fleet} denied={update} label="Pin to release" />
          </SettingRow>
        ) : null}
        <RepositorySettings fleet={fleet} denied={update} />
        {fleet.is_of__class === 'fleet' ? (
          <ApplicationTypeSetting
            fleet={fleet}
            denied={access.denied('application', 'change-type')}
          />
        ) : null}
        <DeviceTypeSetting fleet={fleet} denied={update} />
      </Section>
      <Section title="Danger zone" danger>
        {leave}
        {access.can('application', 'transfer') ? <TransferOwnership fleet={fleet} /> : null}
        <DeleteFleet fleet={fleet} denied={access.denied('application', 'delete')} />
        <Box sx={{ pb: 1 }} />
      </Section>
    </Stack>
  );
};
