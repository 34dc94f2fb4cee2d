import Alert from '@mui/material/Alert';
import type { DeviceDetail } from '../../device/device-rows.js';

// Why actions that reach the device are unavailable (offline, no cloudlink), and an undervolted
// device's warning.
export const DeviceAlerts = ({ detail }: { detail: DeviceDetail }) => {
  const offline = detail.api_heartbeat_state === 'offline';
  return (
    <>
      {offline || !detail.is_connected_to_vpn ? (
        <Alert severity="info">
          {offline ? 'This device is offline' : 'This device is not connected to the cloudlink'}:
          actions that reach the device are unavailable until it reconnects.
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
