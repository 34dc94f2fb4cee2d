import { fleetNameClash, fleetNameProblem } from '@flotilla/shared/fleets/fleet-name';
import { Alert, Button, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useClient } from '../../../api/client.js';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useUpdateFleet } from './useUpdateFleet.js';
import { MutationError } from '../../../ui/MutationError.js';

export const legacyRenameReason = 'cannot rename classic and legacy applications';

// Rename: same rules as creation, and no clash with another application of the organization.
export const RenameSetting = ({
  application,
  denied,
}: {
  application: FleetDetail;
  denied: string | null;
}) => {
  const client = useClient();
  const update = useUpdateFleet(application.id);
  const [name, setName] = useState(application.app_name);
  const label = classLabels[application.is_of__class].one;
  const organizationId = application.organization[0]?.id ?? 0;
  const reason = denied ?? (application.application_type[0]?.is_legacy ? legacyRenameReason : null);
  const others = useQuery({
    queryKey: ['applications', 'names', organizationId],
    enabled: reason === null && organizationId > 0,
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: { $select: ['id', 'app_name'], $filter: { organization: organizationId } },
      }),
  });
  const otherNames = (others.data ?? [])
    .filter((row) => row.id !== application.id)
    .map((row) => row.app_name);
  const changed = name !== application.app_name;
  const problem =
    fleetNameProblem(name) ?? fleetNameClash(name, otherNames, application.is_of__class);
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
            slotProps={{ htmlInput: { maxLength: 120 } }}
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
