import { queueExpiryChoices } from '@flotilla/shared/devices/queued-actions';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { plural } from '../../device/device-format.js';

export type QueueState = { queue: boolean; hours: number };

const expiryLabel = (hours: number): string =>
  hours % 24 === 0 ? plural(hours / 24, 'day') : plural(hours, 'hour');

// The confirmation's choice for offline devices: queue the action until the device comes back
// (for how long), or leave them out.
export const QueueChoice = ({
  offline,
  value,
  onChange,
}: {
  // How many of the devices are offline.
  offline: number;
  value: QueueState;
  onChange: (value: QueueState) => void;
}) => (
  <Alert severity="info">
    {plural(offline, 'device')} {offline === 1 ? 'is' : 'are'} offline.
    <FormControlLabel
      sx={{ display: 'flex' }}
      control={
        <Checkbox
          checked={value.queue}
          onChange={(event) => onChange({ ...value, queue: event.target.checked })}
        />
      }
      label="Queue for when it comes online"
    />
    <QueueExpiryField
      hours={value.hours}
      disabled={!value.queue}
      onChange={(hours) => onChange({ ...value, hours })}
    />
  </Alert>
);

// How long a queued action waits for its device.
export const QueueExpiryField = ({
  hours,
  disabled = false,
  onChange,
}: {
  hours: number;
  disabled?: boolean;
  onChange: (hours: number) => void;
}) => (
  <TextField
    select
    size="small"
    label="Expires after"
    value={hours}
    disabled={disabled}
    onChange={(event) => onChange(Number(event.target.value))}
    sx={{ minWidth: 160, mt: 1 }}
  >
    {queueExpiryChoices.map((choice) => (
      <MenuItem key={choice} value={choice}>
        {expiryLabel(choice)}
      </MenuItem>
    ))}
  </TextField>
);
