import Alert from '@mui/material/Alert';
import { lazy, Suspense } from 'react';
import type { DeviceDetail } from '../../device/device-rows.js';
import { releaseBlockerOf } from '../../device/release-blocker.js';

// Its own chunk, read after the page shows: the firing alerts of the alert rules.
const DeviceActiveAlerts = lazy(async () => ({
  default: (await import('./DeviceActiveAlerts.js')).DeviceActiveAlerts,
}));

// The device's firing alerts (alert rules), what an offline device can still be sent (queued
// actions) and what waits for it, why it cannot run its fleet's release (however online it is), and an
// undervolted device's warning.
export const DeviceAlerts = ({ detail }: { detail: DeviceDetail }) => {
  const offline = detail.api_heartbeat_state === 'offline';
  const blocker = releaseBlockerOf(detail);
  return (
    <>
      <Suspense fallback={null}>
        <DeviceActiveAlerts deviceId={detail.id} />
      </Suspense>
      {blocker === null ? null : (
        <Alert severity="warning" role="status" aria-label="Cannot run the release">
          {blocker}.
        </Alert>
      )}
      {offline || !detail.is_connected_to_vpn ? (
        <Alert severity="info">
          {offline ? 'This device is offline' : 'This device is not connected to the cloudlink'}:
          reboot, shutdown, identify, purge, service actions and OS or supervisor updates can be
          queued to run when it reconnects; the terminal and diagnostics wait for it.
        </Alert>
      ) : null}
      {detail.is_undervolted ? (
        <Alert severity="warning">
          This device is undervolted: its power supply does not deliver enough voltage, which can
          corrupt data or make it unstable.
        </Alert>
      ) : null}
    </>
  );
};
