import { errorText } from '@flotilla/sdk/errors';
import type { OfferedOsImage } from '@flotilla/shared/host-os/os-image';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { type OsImageRequest, useDownloadOsImage, useOfferedOsImages } from './api-os-images.js';

const sizeText = (bytes: number): string =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GiB`
    : `${Math.max(1, Math.round(bytes / 1024 ** 2))} MiB`;

const imageLabel = (image: OfferedOsImage): string =>
  `${image.version}${image.variant === '' ? '' : ` (${image.variant})`} · ${sizeText(image.size)}`;

// Add device's OS image: when the catalogue has an image for the device type, it is offered with
// the fleet's config.json written into its boot partition; otherwise the dialog says so, and the
// config.json download and the agent command below stay the way to add a device.
export const OsImageSection = ({
  deviceType,
  deviceTypeName,
  denied,
  request,
}: {
  deviceType: string | undefined;
  deviceTypeName: string | undefined;
  denied: string | null;
  // The download's settings (read at the click), but for the release chosen here.
  request: (() => Omit<OsImageRequest, 'release'>) | null;
}) => {
  const images = useOfferedOsImages(deviceType);
  const download = useDownloadOsImage();
  const [chosen, setChosen] = useState<number | null>(null);
  if (deviceType === undefined) return null;
  if (images.isPending) return <Skeleton variant="rounded" height={56} aria-label="Loading" />;
  if (images.isError) {
    return (
      <Alert severity="error">{errorText(images.error) ?? 'Could not load the OS images'}</Alert>
    );
  }
  const offered = images.data;
  if (offered.length === 0) {
    return (
      <Alert severity="info">
        This server has no OS image for {deviceTypeName ?? deviceType}: download config.json and run
        the agent on the device as below. (A platform administrator can add an image per OS release
        in the OS catalogue.)
      </Alert>
    );
  }
  const image = offered.find((entry) => entry.release === chosen) ?? offered[0];
  return (
    <Box component="section" aria-label="OS image">
      <Typography variant="subtitle2" component="h3" gutterBottom>
        Flash an OS image
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        The image carries this fleet&apos;s config.json in its boot partition: write it to the
        device&apos;s card or disk (with balenaEtcher or dd) and the device joins the fleet on its
        first boot.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label="OS version"
          sx={{ minWidth: 240 }}
          value={image?.release ?? ''}
          onChange={(event) => setChosen(Number(event.target.value))}
        >
          {offered.map((entry) => (
            <MenuItem key={entry.release} value={entry.release}>
              {imageLabel(entry)}
            </MenuItem>
          ))}
        </TextField>
        <DisabledReason reason={denied}>
          <Button
            variant="contained"
            startIcon={<DownloadIcon />}
            disabled={
              denied !== null || request === null || image === undefined || download.isPending
            }
            onClick={() => {
              if (request !== null && image !== undefined) {
                download.mutate({ ...request(), release: image.release });
              }
            }}
          >
            {download.isPending ? 'Preparing…' : 'Download OS image'}
          </Button>
        </DisabledReason>
      </Stack>
      {download.isError ? (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {errorText(download.error) ?? 'Could not prepare the OS image'}
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        Or, on a machine that already runs Linux, download config.json and run the agent:
      </Typography>
    </Box>
  );
};
