import { auditHistoryPermission } from '@flotilla/shared/audit-log/audit-permission';
import { devicePanelPermissions } from '@flotilla/shared/devices/device-action-permissions';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router';
import { useFleetRole } from '../fleet/api-fleet-role.js';
import type { FleetPermission } from '../fleet/RequireFleetPermission.js';

const sections: readonly { path: string; label: string; needs?: FleetPermission }[] = [
  { path: '', label: 'Summary' },
  { path: 'actions', label: 'Actions' },
  { path: 'settings', label: 'Settings' },
  { path: 'location', label: 'Location' },
  { path: 'envvars', label: 'Variables' },
  { path: 'config', label: 'Configuration' },
  { path: 'diagnostics', label: 'Diagnostics', needs: devicePanelPermissions.diagnostics },
  { path: 'history', label: 'History', needs: auditHistoryPermission },
];

// The device page's sections; a section that needs a permission the user lacks on the device's
// fleet is not offered (its page would send them home).
export const DeviceTabs = ({ uuid, fleetId }: { uuid: string; fleetId: number }) => {
  const { pathname } = useLocation();
  const access = useFleetRole(fleetId);
  const base = `/devices/${uuid}`;
  const current =
    sections.find(
      (section) => section.path !== '' && pathname.startsWith(`${base}/${section.path}`),
    )?.path ?? '';
  return (
    <Tabs
      value={current}
      aria-label="Device sections"
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      {sections
        .filter(
          (section) =>
            section.needs === undefined ||
            section.path === current ||
            access.can(section.needs.resource, section.needs.action),
        )
        .map((section) => (
          <Tab
            key={section.path}
            label={section.label}
            value={section.path}
            component={RouterLink}
            to={section.path === '' ? base : `${base}/${section.path}`}
          />
        ))}
    </Tabs>
  );
};
