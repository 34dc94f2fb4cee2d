import { errorText } from '@flotilla/sdk/errors';
import {
  agentInstallCommand,
  agentNodeVersion,
  isLoopbackUrl,
} from '@flotilla/shared/agent/agent-package';
import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDeviceTypesWithArchitecture, useDownloadConfig, useServerUrl } from './api.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFreePlanLimit } from './FreePlanWarning.js';
import { CopyableText } from '../../ui/CopyableText.js';
import { OsImageSection } from './OsImageSection.js';

type DeviceTypeOption = {
  id: number;
  slug: string;
  name: string;
  is_of__cpu_architecture: { slug: string }[];
};

// Minutes between target-state polls offered for the agent (the server accepts 1 to 1440).
export const pollIntervals = [1, 5, 10, 15, 30, 60] as const;
const defaultPollInterval = 10;

// How long the provisioning key in config.json may register devices, in days (null: for ever).
// Each download makes a new key, so a bounded default keeps forgotten files from staying keys.
export const keyLifetimes = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never expires' },
] as const;
const defaultKeyLifetime = 30;
const dayMs = 86_400_000;

// Hands a JSON object to the browser as a file download.
const downloadJson = (value: unknown, fileName: string): void => {
  const url = URL.createObjectURL(
    new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }),
  );
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  // Revoked after the click has been handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
};

// Add device: choose a device type the fleet's architecture runs on, download
// the agent's config.json (it carries a new provisioning key) and run the agent with it.
export const AddDeviceDialog = ({
  application,
  downloadDenied,
  onClose,
}: {
  application: FleetDetail;
  // Why the user may not create the provisioning key the configuration holds, or null.
  downloadDenied: string | null;
  onClose: () => void;
}) => {
  const titleId = useId();
  const fleetType = application.is_for__device_type[0];
  const fleetArchitecture = fleetType?.is_of__cpu_architecture[0]?.slug;
  const deviceTypes = useDeviceTypesWithArchitecture();
  // Devices whose CPU can run the fleet's images (same architecture family).
  const compatible = (deviceTypes.data ?? []).filter((type) => {
    const architecture = type.is_of__cpu_architecture[0]?.slug;
    return (
      fleetArchitecture === undefined ||
      (architecture !== undefined && canRunArchitecture(architecture, fleetArchitecture))
    );
  });
  const [chosen, setChosen] = useState<DeviceTypeOption | null>(null);
  const [pollInterval, setPollInterval] = useState<number>(defaultPollInterval);
  const [keyDays, setKeyDays] = useState<number | null>(defaultKeyLifetime);
  const deviceType =
    chosen ?? compatible.find((type) => type.slug === fleetType?.slug) ?? compatible[0] ?? null;
  const download = useDownloadConfig((config) => downloadJson(config, 'config.json'));
  const noneCompatible = deviceTypes.isSuccess && compatible.length === 0;
  // The server as this browser reaches it: what download-config writes as apiEndpoint too.
  const serverUrl = useServerUrl();
  const agentCommand = agentInstallCommand(serverUrl);
  // Read when a download starts, so the lifetime counts from then.
  const keyExpiry = () =>
    keyDays === null
      ? {}
      : { provisioningKeyExpiryDate: new Date(Date.now() + keyDays * dayMs).toISOString() };
  const freePlan = useFreePlanLimit(application.organization[0]?.id ?? 0);
  const denied = downloadDenied ?? (freePlan.blocked ? 'Free plan allowance reached' : null);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Add device</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Typography color="text.secondary">
            Download the configuration of {application.app_name} and start the Flotilla agent with
            it on the device. The device joins the fleet on its first contact.
          </Typography>
          {isLoopbackUrl(serverUrl) ? (
            <Alert severity="warning">
              This console is open at {new URL(serverUrl).host}, an address only this machine
              reaches, and config.json and the command below will carry it. For a device on your
              network, open the console by the server&apos;s network address (the server listens on
              it with HOST=0.0.0.0).
            </Alert>
          ) : null}
          {freePlan.warning}
          {deviceTypes.isError ? (
            <Alert severity="error">
              {errorText(deviceTypes.error) ?? 'Could not load the device types'}
            </Alert>
          ) : null}
          {noneCompatible ? (
            <Alert severity="warning">Could not find compatible cpu architecture</Alert>
          ) : null}
          <Autocomplete
            options={compatible}
            value={deviceType}
            onChange={(_event, value) => setChosen(value)}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            loading={deviceTypes.isPending}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Device type"
                helperText="Device types able to run this fleet's releases"
              />
            )}
          />
          <TextField
            select
            label="Check for updates every"
            value={pollInterval}
            onChange={(event) => setPollInterval(Number(event.target.value))}
          >
            {pollIntervals.map((minutes) => (
              <MenuItem key={minutes} value={minutes}>
                {minutes === 1 ? '1 minute' : `${minutes} minutes`}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Provisioning key expires after"
            value={keyDays === null ? 'never' : String(keyDays)}
            onChange={(event) =>
              setKeyDays(event.target.value === 'never' ? null : Number(event.target.value))
            }
            helperText={
              <>
                Each download creates a new provisioning key for this fleet, which registers devices
                until it expires. The fleet&apos;s keys are listed, and can be revoked, under{' '}
                <Link component={RouterLink} to={`/fleets/${application.id}/api-keys`}>
                  provisioning keys
                </Link>
                .
              </>
            }
          >
            {keyLifetimes.map((lifetime) => (
              <MenuItem key={lifetime.label} value={lifetime.days ?? 'never'}>
                {lifetime.label}
              </MenuItem>
            ))}
          </TextField>
          <OsImageSection
            deviceType={deviceType?.slug}
            deviceTypeName={deviceType?.name}
            denied={downloadDenied}
            request={
              deviceType === null
                ? null
                : () => ({
                    appId: application.id,
                    deviceType: deviceType.slug,
                    appUpdatePollInterval: pollInterval,
                    ...keyExpiry(),
                  })
            }
          />
          {download.isError ? (
            <Alert severity="error">
              {errorText(download.error) ?? 'Could not download the configuration'}
            </Alert>
          ) : null}
          <Box>
            <DisabledReason reason={denied}>
              <Button
                variant="contained"
                startIcon={<DownloadIcon />}
                disabled={denied !== null || deviceType === null || download.isPending}
                onClick={() =>
                  download.mutate({
                    appId: application.id,
                    deviceType: deviceType?.slug,
                    appUpdatePollInterval: pollInterval,
                    ...keyExpiry(),
                  })
                }
              >
                {download.isPending ? 'Preparing…' : 'Download config.json'}
              </Button>
            </DisabledReason>
          </Box>
          <Box>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Then run the agent on the device (Node.js {agentNodeVersion} or later), next to
              config.json:
            </Typography>
            <CopyableText value={agentCommand} label="agent command" />
            <Typography variant="body2" color="text.secondary">
              npx installs the agent from this server; the device needs no other download.
            </Typography>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
