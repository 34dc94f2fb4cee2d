import { useBreadcrumbs } from '../ui/breadcrumbs.js';
import { classLabels } from '../fleet/class-names.js';
import type { DeviceDetail } from './device-rows.js';

// A device page's breadcrumbs: organization, fleet, its devices, the device. The devices crumb
// keeps the table's search and filter (the URL it was left with).
export const useDeviceBreadcrumbs = (detail: DeviceDetail | null): void => {
  const fleet = detail?.belongs_to__application[0];
  const organization = fleet?.organization[0];
  const fleetPath = fleet ? `${classLabels[fleet.is_of__class].path}/${fleet.id}` : '/fleets';
  useBreadcrumbs(
    detail && fleet && organization
      ? [
          { label: organization.name, to: `/orgs/${organization.id}/fleets` },
          { label: fleet.app_name, to: fleetPath },
          { label: 'Devices', to: `${fleetPath}/devices` },
          { label: detail.device_name, to: `/devices/${detail.uuid}` },
        ]
      : [],
  );
};
