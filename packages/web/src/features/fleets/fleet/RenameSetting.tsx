import { fleetNameClash, fleetNameProblem } from '@flotilla/shared/fleets/fleet-name';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useFleetNames } from '../api.js';
import { useUpdateFleet } from './api-fleet.js';
import { MutationError } from '../../../ui/MutationError.js';

export const legacyRenameReason = 'cannot rename classic and legacy applications';

// Rename: same rules as creation, and no clash with another fleet of the organization.
export const RenameSetting = ({ fleet, denied }: { fleet: FleetDetail; denied: string | null }) => {
  const update = useUpdateFleet(fleet.id);
  const [name, setName] = useState(fleet.app_name);
  const label = classLabels[fleet.is_of__class].one;
  const organizationId = fleet.organization[0]?.id ?? 0;
  const reason = denied ?? (fleet.application_type[0]?.is_legacy ? legacyRenameReason : null);
  const others = useFleetNames(organizationId, reason === null && organizationId > 0);
  const otherNames = (others.data ?? [])
    .filter((row) => row.id !== fleet.id)
    .map((row) => row.app_name);
  const changed = name !== fleet.app_name;
  const problem = fleetNameProblem(name) ?? fleetNameClash(name, otherNames, fleet.is_of__class);
  return (
    <SettingRow
      title={`${label} name`}
      description={`Rename this ${label.toLowerCase()}: 4 to 100 characters, letters, digits, _ and -.`}
    >
      <Stack
        component="form"
        spacing={1}
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({ app_name: name });
        }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            fullWidth
            label={`${label} name`}
            value={name}
            disabled={reason !== null || update.isPending}
            onChange={(event) => {
              update.reset();
              setName(event.target.value);
            }}
            error={changed && Boolean(problem)}
            helperText={changed ? problem : undefined}
          />
          <DisabledReason reason={reason}>
            <Button
              type="submit"
              variant="contained"
              disabled={reason !== null || !changed || Boolean(problem) || update.isPending}
            >
              Rename
            </Button>
          </DisabledReason>
        </Stack>
        <MutationError error={update.isError ? update.error : null} fallback={'Could not rename'} />
        {update.isSuccess && !changed ? <Alert severity="success">Renamed</Alert> : null}
      </Stack>
    </SettingRow>
  );
};
