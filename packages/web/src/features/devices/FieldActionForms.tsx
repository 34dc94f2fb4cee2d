import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { supportAccessText } from '../../fleet/support-access.js';
import { publicDeviceUrl } from './device-url.js';
import type { FieldActionDevice } from './field-action-device.js';
import { configKeys } from '../../api/config/query-keys.js';

// The small forms of the field actions (the pin and move forms have files of their own).

export const OnOffChoice = ({
  value,
  onChange,
  labels,
}: {
  value: boolean;
  onChange: (value: boolean) => void;
  labels: [on: string, off: string];
}) => (
  <RadioGroup
    value={value ? 'on' : 'off'}
    onChange={(event) => onChange(event.target.value === 'on')}
  >
    <FormControlLabel value="on" control={<Radio />} label={labels[0]} />
    <FormControlLabel value="off" control={<Radio />} label={labels[1]} />
  </RadioGroup>
);

// The public URL of the one device, when it is on.
export const PublicUrlState = ({ device }: { device: FieldActionDevice }) => {
  const client = useClient();
  const config = useQuery({
    queryKey: configKeys.server,
    queryFn: () => client.config(),
    staleTime: Infinity,
    enabled: device.isWebAccessible,
  });
  if (!device.isWebAccessible) {
    return <Typography variant="body2">The public device URL is off.</Typography>;
  }
  const base = config.data?.deviceUrlsBase;
  const url = base ? publicDeviceUrl(device.target.uuid, base) : null;
  return (
    <Typography variant="body2">
      The public device URL is on
      {url ? (
        <>
          :{' '}
          <Link href={url} target="_blank" rel="noreferrer">
            {url}
          </Link>
        </>
      ) : null}
      .
    </Typography>
  );
};

// Enabling local mode leaves out the devices that cannot run it, each with its reason.
export const LocalModeEligibility = ({
  devices,
  enabling,
}: {
  devices: readonly FieldActionDevice[];
  enabling: boolean;
}) => {
  if (!enabling) return null;
  const blocked = devices.filter((device) => device.state.localModeBlock !== null);
  if (blocked.length === 0) return null;
  if (devices.length === 1) {
    return <Alert severity="warning">{blocked[0]?.state.localModeBlock}</Alert>;
  }
  return (
    <Alert severity="warning">
      {blocked.length} of the selected devices cannot run local mode and are left out:{' '}
      {blocked
        .slice(0, 5)
        .map((device) => `${device.target.name} (${device.state.localModeBlock})`)
        .join(', ')}
      {blocked.length > 5 ? ` and ${blocked.length - 5} more` : ''}.
    </Alert>
  );
};

export const SupportAccessForm = ({
  devices,
  grant,
  onGrant,
  until,
  onUntil,
  error,
  now,
  min,
}: {
  devices: readonly FieldActionDevice[];
  grant: boolean;
  onGrant: (grant: boolean) => void;
  until: string;
  onUntil: (until: string) => void;
  // The debounced check's answer for the chosen date (support-access-check.ts).
  error: string | null;
  now: number;
  min: string;
}) => {
  const [only] = devices;
  return (
    <Stack spacing={1}>
      {devices.length === 1 && only ? (
        <Typography variant="body2" role="status">
          {supportAccessText(only.supportUntil, now)}
        </Typography>
      ) : null}
      <OnOffChoice value={grant} onChange={onGrant} labels={['Grant access', 'Revoke access']} />
      {grant ? (
        <TextField
          size="small"
          type="datetime-local"
          label="Grant until"
          value={until}
          onChange={(event) => onUntil(event.target.value)}
          error={error !== null}
          helperText={error ?? undefined}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min } }}
        />
      ) : null}
    </Stack>
  );
};
