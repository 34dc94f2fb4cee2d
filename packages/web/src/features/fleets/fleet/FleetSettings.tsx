import { errorText } from '@flotilla/sdk/errors';
import { grants, ownRowPermissions } from '@flotilla/shared/permissions/permissions';
import { Alert, Box, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { type ReactNode, useId } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
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

// Every setting of a fleet, each gated by the shared permission table: without the permission a control is disabled with the reason as its tooltip;
// transfer is hidden unless held and "remove my access" needs a direct membership.
export const FleetSettings = ({ fleet }: { fleet: FleetDetail }) => {
  const access = useFleetRole(fleet.id);
  const label = classLabels[fleet.is_of__class].one.toLowerCase();
  const update = access.denied('application', 'update');
  const pinnable = fleet.is_of__class !== 'app';
  return (
    <Stack spacing={3}>
      {access.isPending ? <LinearProgress aria-label="Checking your permissions" /> : null}
      {access.error ? (
        <Alert severity="error">
          {errorText(access.error) ?? 'Could not check your permissions'}
        </Alert>
      ) : null}
      {!access.isPending && update !== null ? (
        <Alert severity="info">
          {`Your role on this ${label} does not allow changing its settings. ${update}.`}
        </Alert>
      ) : null}
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
        {access.directMembershipId !== null ? (
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
        ) : null}
        {access.can('application', 'transfer') ? <TransferOwnership fleet={fleet} /> : null}
        <DeleteFleet fleet={fleet} denied={access.denied('application', 'delete')} />
        <Box sx={{ pb: 1 }} />
      </Section>
    </Stack>
  );
};
