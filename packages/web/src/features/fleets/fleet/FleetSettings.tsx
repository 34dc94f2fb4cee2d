import { errorText } from '@flotilla/sdk/errors';
import { Alert, Box, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { type ReactNode, useId } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { ApplicationTypeSetting } from './ApplicationTypeSetting.js';
import { DefaultReleaseSelector } from './DefaultReleaseSelector.js';
import { DeleteFleet } from './DeleteFleet.js';
import { DeviceTypeSetting } from './DeviceTypeSetting.js';
import { RemoveAccess } from '../../fleet-access/RemoveAccess.js';
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
// held and "remove my access" needs a direct membership. The page's guard has already sent home
// anyone who may not change the fleet (they leave it from the members page).
export const FleetSettings = ({ fleet }: { fleet: FleetDetail }) => {
  const access = useFleetRole(fleet.id);
  const update = access.denied('application', 'update');
  const pinnable = fleet.is_of__class !== 'app';
  if (access.isPending || access.error) {
    return access.error ? (
      <Alert severity="error">
        {errorText(access.error) ?? 'Could not check your permissions'}
      </Alert>
    ) : (
      <LinearProgress aria-label="Checking your permissions" />
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
        <RemoveAccess fleet={fleet} access={access} />
        {access.can('application', 'transfer') ? <TransferOwnership fleet={fleet} /> : null}
        <DeleteFleet fleet={fleet} denied={access.denied('application', 'delete')} />
        <Box sx={{ pb: 1 }} />
      </Section>
    </Stack>
  );
};
