import { auditHistoryPermission } from '@flotilla/shared/audit-log/audit-permission';
import { DeviceSection } from '../../device/DeviceSection.js';
import { RequireFleetPermission } from '../../fleet/RequireFleetPermission.js';
import { AuditLogView } from './AuditLogView.js';

// /devices/:uuid/history (the fleet's administrators): every recorded change of the device.
export const DeviceHistoryPage = () => (
  <DeviceSection title="History">
    {(device) => {
      const fleetId = device.belongs_to__application[0]?.id ?? 0;
      return (
        <RequireFleetPermission fleetId={fleetId} needs={auditHistoryPermission}>
          <AuditLogView
            source={{ kind: 'fleet', id: fleetId }}
            filter={{ device: device.id }}
            label="Device history"
          />
        </RequireFleetPermission>
      );
    }}
  </DeviceSection>
);
