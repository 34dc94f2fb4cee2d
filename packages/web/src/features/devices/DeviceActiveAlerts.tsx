import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { absoluteTime } from '../../device/device-format.js';
import { type DeviceAlertRow, useDeviceActiveAlerts } from '../../device/api-device-alerts.js';

const organizationOf = (alert: DeviceAlertRow): number | undefined =>
  alert.is_raised_by__flotilla_alert_rule[0]?.belongs_to__organization.__id;

// The device page's banner of the device's firing alerts (features/alerts' sweep), each with the
// rule that raised it. Nothing while loading or when none fires: most devices have none, and a
// banner that says so on every device would be noise.
export const DeviceActiveAlerts = ({ deviceId }: { deviceId: number }) => {
  const alerts = useDeviceActiveAlerts(deviceId);
  if (alerts.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void alerts.refetch()}>
            Retry
          </Button>
        }
      >
        Could not load the device&apos;s alerts.
      </Alert>
    );
  }
  const firing = alerts.data ?? [];
  const first = firing[0];
  if (first === undefined) return null;
  const organization = organizationOf(first);
  return (
    <Alert severity="warning" role="region" aria-label="Active alerts">
      <AlertTitle>
        {firing.length === 1 ? '1 active alert' : `${firing.length} active alerts`}
      </AlertTitle>
      <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
        {firing.map((alert) => (
          <li key={alert.id}>
            <strong>{alert.is_raised_by__flotilla_alert_rule[0]?.name ?? 'Alert'}</strong>:{' '}
            {alert.detail} (since {absoluteTime(alert.started_at)})
          </li>
        ))}
      </ul>
      {organization === undefined ? null : (
        <Link component={RouterLink} to={`/orgs/${organization}/alerts`}>
          Alert rules
        </Link>
      )}
    </Alert>
  );
};
