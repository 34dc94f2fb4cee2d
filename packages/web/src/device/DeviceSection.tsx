import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { RedirectWithMessage } from '../ui/RedirectWithMessage.js';
import { useDeviceBreadcrumbs } from './useDeviceBreadcrumbs.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useDeviceDetail } from './api.js';
import type { DeviceDetail } from './device-rows.js';
import { DeviceTabs } from './DeviceTabs.js';
import { DeviceHeaderSlot } from './device-header-slot.js';
import { classLabels } from '../fleet/class-names.js';

// The frame of a device's sub-pages: the device (the device page's own query, so switching tabs
// reads the cache), its breadcrumbs, the device page's header and section tabs. A device not
// found goes to /, a frozen one to its fleet.
export const DeviceSection = ({
  title,
  children,
}: {
  title: string;
  children: (device: DeviceDetail) => ReactNode;
}) => {
  const { uuid = '' } = useParams();
  const device = useDeviceDetail(uuid);
  const detail = device.data ?? null;
  const fleet = detail?.belongs_to__application[0];
  const fleetPath = fleet ? `${classLabels[fleet.is_of__class].path}/${fleet.id}` : '/fleets';
  usePageTitle(detail ? `${title} · ${detail.device_name}` : title);
  useDeviceBreadcrumbs(detail);
  if (device.isPending) {
    return (
      <Box aria-busy="true" aria-label="Loading">
        <Skeleton variant="text" width={280} height={48} />
        <Skeleton variant="rounded" height={240} sx={{ mt: 2 }} />
      </Box>
    );
  }
  if (device.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void device.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(device.error) ?? 'Could not load the device'}
      </Alert>
    );
  }
  if (!detail || !fleet) {
    return <RedirectWithMessage to="/" message={`Device not found: ${uuid.slice(0, 62)}`} />;
  }
  if (detail.is_frozen) return <Navigate to={fleetPath} replace />;
  return (
    <Stack spacing={2}>
      <DeviceHeaderSlot
        detail={detail}
        fallback={
          <Typography variant="h1" noWrap title={detail.device_name}>
            {detail.device_name}
          </Typography>
        }
      />
      <DeviceTabs uuid={detail.uuid} fleetId={fleet.id} />
      {children(detail)}
    </Stack>
  );
};
