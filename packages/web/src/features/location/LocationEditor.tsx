import { errorText } from '@flotilla/sdk/errors';
import { coordinateProblem, effectiveLocation } from '@flotilla/shared/devices/location';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { DeviceDetail } from '../../device/device-rows.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { useSaveLocation } from './api.js';
import { DeviceMap } from './DeviceMap.js';

export const locationMessages = {
  bothRequired: 'Both latitude and longitude are required',
  notDetermined: 'The device location could not be determined',
} as const;

type Mode = 'reported' | 'custom';

// Geo-determined or manual location: saving sets or unsets the custom latitude and longitude;
// save and cancel are disabled while nothing changed.
export const LocationEditor = ({ device }: { device: DeviceDetail }) => {
  const fleetId = device.belongs_to__application[0]?.id ?? 0;
  const denied = useFleetRole(fleetId).denied('device', 'update');
  const initialMode: Mode = device.custom_latitude ? 'custom' : 'reported';
  const [mode, setMode] = useState<Mode>(initialMode);
  const [latitude, setLatitude] = useState(device.custom_latitude ?? '');
  const [longitude, setLongitude] = useState(device.custom_longitude ?? '');
  const save = useSaveLocation(device.id);
  const changed =
    mode !== initialMode ||
    (mode === 'custom' &&
      (latitude !== (device.custom_latitude ?? '') ||
        longitude !== (device.custom_longitude ?? '')));
  const latitudeProblem = latitude.trim() === '' ? null : coordinateProblem('latitude', latitude);
  const longitudeProblem =
    longitude.trim() === '' ? null : coordinateProblem('longitude', longitude);
  const missing = mode === 'custom' && (latitude.trim() === '' || longitude.trim() === '');
  const invalid = mode === 'custom' && (latitudeProblem !== null || longitudeProblem !== null);
  const shown = effectiveLocation(
    mode === 'custom' && !missing && !invalid
      ? { ...device, custom_latitude: latitude, custom_longitude: longitude }
      : { ...device, custom_latitude: null, custom_longitude: null },
  );
  const reset = (): void => {
    setMode(initialMode);
    setLatitude(device.custom_latitude ?? '');
    setLongitude(device.custom_longitude ?? '');
    save.reset();
  };
  return (
    <Stack spacing={2}>
      <DeviceMap point={shown} label={device.device_name} />
      {shown === null ? <Alert severity="info">{locationMessages.notDetermined}</Alert> : null}
      <RadioGroup
        value={mode}
        onChange={(event) => setMode(event.target.value === 'custom' ? 'custom' : 'reported')}
      >
        <FormControlLabel
          value="reported"
          control={<Radio />}
          disabled={denied !== null}
          label={`Geo-determined location${device.latitude && device.longitude ? ` (${device.latitude}, ${device.longitude})` : ''}`}
        />
        <FormControlLabel
          value="custom"
          control={<Radio />}
          disabled={denied !== null}
          label="Manual location"
        />
      </RadioGroup>
      {mode === 'custom' ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            size="small"
            label="Latitude"
            value={latitude}
            onChange={(event) => setLatitude(event.target.value)}
            error={latitudeProblem !== null}
            helperText={latitudeProblem ?? undefined}
            disabled={denied !== null}
          />
          <TextField
            size="small"
            label="Longitude"
            value={longitude}
            onChange={(event) => setLongitude(event.target.value)}
            error={longitudeProblem !== null}
            helperText={longitudeProblem ?? undefined}
            disabled={denied !== null}
          />
        </Stack>
      ) : null}
      {missing && changed ? (
        <Typography variant="body2" color="text.secondary">
          {locationMessages.bothRequired}
        </Typography>
      ) : null}
      {denied ? (
        <Typography variant="body2" color="text.secondary">
          {denied}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          disabled={!changed || missing || invalid || save.isPending || denied !== null}
          onClick={() =>
            save.mutate(
              mode === 'custom'
                ? { latitude: latitude.trim(), longitude: longitude.trim() }
                : { latitude: null, longitude: null },
            )
          }
        >
          Save
        </Button>
        <Button disabled={!changed || save.isPending} onClick={reset}>
          Cancel
        </Button>
      </Stack>
      {save.isError ? (
        <Alert severity="error">{errorText(save.error) ?? 'Could not save the location'}</Alert>
      ) : null}
    </Stack>
  );
};
