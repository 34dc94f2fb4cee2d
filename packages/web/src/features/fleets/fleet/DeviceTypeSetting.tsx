import { errorText } from '@flotilla/sdk/errors';
import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { SettingRow } from '../../../ui/SettingRow.js';
import { useDeviceTypesOfArchitecture } from '../api.js';
import { useUpdateFleet } from './api-fleet.js';
import { MutationError } from '../../../ui/MutationError.js';

// The default device type may change only to one of the same CPU architecture, so the fleet's
// releases keep running on its devices.
export const DeviceTypeSetting = ({
  fleet,
  denied,
}: {
  fleet: FleetDetail;
  denied: string | null;
}) => {
  const update = useUpdateFleet(fleet.id);
  const current = fleet.is_for__device_type[0];
  const architecture = current?.is_of__cpu_architecture[0];
  const [chosen, setChosen] = useState<number | ''>('');
  const deviceTypes = useDeviceTypesOfArchitecture(
    architecture?.id ?? 0,
    architecture !== undefined,
  );
  const value = chosen === '' ? (current?.id ?? '') : chosen;
  const options = deviceTypes.data ?? (current ? [current] : []);
  return (
    <SettingRow
      title="Default device type"
      description={`Device types with the ${architecture?.slug ?? 'same'} CPU architecture.`}
    >
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            size="small"
            fullWidth
            label="Default device type"
            value={options.some((option) => option.id === value) ? value : ''}
            onChange={(event) => setChosen(Number(event.target.value))}
            disabled={denied !== null || deviceTypes.isPending || update.isPending}
          >
            {options.map((option) => (
              <MenuItem key={option.id} value={option.id}>
                {option.name}
              </MenuItem>
            ))}
          </TextField>
          <DisabledReason reason={denied}>
            <Button
              variant="contained"
              disabled={
                denied !== null || value === '' || value === current?.id || update.isPending
              }
              onClick={() => {
                if (value !== '') update.mutate({ is_for__device_type: value });
              }}
            >
              Change
            </Button>
          </DisabledReason>
        </Stack>
        {deviceTypes.isError ? (
          <Alert severity="warning">
            {errorText(deviceTypes.error) ?? 'Could not load the device types'}
          </Alert>
        ) : null}
        <MutationError
          error={update.isError ? update.error : null}
          fallback={'Could not change the default device type'}
        />
      </Stack>
    </SettingRow>
  );
};
