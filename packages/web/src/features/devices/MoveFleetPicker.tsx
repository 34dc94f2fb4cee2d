import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FieldActionDevice } from './field-action-device.js';
import { losesStorageOnMove, moveMessages, moveOptions } from './move-targets.js';
import { useMoveData } from './api-move.js';

// The fleet picker of "Move device": every fleet the user sees, those the devices cannot move
// to disabled with the reason.
export const MoveFleetPicker = ({
  devices,
  value,
  onChange,
}: {
  devices: readonly FieldActionDevice[];
  value: number | null;
  onChange: (value: number | null) => void;
}) => {
  const data = useMoveData(devices.map((device) => device.deviceType));
  const options = data.data
    ? moveOptions(
        data.data,
        devices.map((device) => ({
          deviceType: device.deviceType,
          fleetId: device.target.fleetId,
        })),
      )
    : [];
  const selected = options.find((option) => option.id === value) ?? null;
  const storage = devices.filter((device) => losesStorageOnMove(device.osVersion));
  const anyTarget = options.some((option) => option.block === null);
  return (
    <Stack spacing={1}>
      <Autocomplete
        options={options}
        value={selected}
        onChange={(_event, option) => onChange(option?.id ?? null)}
        getOptionDisabled={(option) => option.block !== null}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        getOptionLabel={(option) => option.app_name}
        renderOption={(props, option) => {
          const { key, ...rest } = props;
          return (
            <li key={key} {...rest}>
              <Stack>
                <span>{option.app_name}</span>
                <span style={{ fontSize: '0.8em', opacity: 0.7 }}>
                  {option.block ?? option.slug}
                </span>
              </Stack>
            </li>
          );
        }}
        loading={data.isPending}
        size="small"
        renderInput={(params) => (
          <TextField
            {...params}
            label="Fleet"
            required
            helperText={value === null ? moveMessages.required : undefined}
          />
        )}
      />
      {data.isSuccess && !anyTarget ? (
        <Alert severity="info">{moveMessages.noTargets}</Alert>
      ) : null}
      {storage.length > 0 ? <Alert severity="warning">{moveMessages.storage}</Alert> : null}
      {data.isError ? (
        <Alert severity="error">{errorText(data.error) ?? 'Could not load the fleets'}</Alert>
      ) : null}
    </Stack>
  );
};
