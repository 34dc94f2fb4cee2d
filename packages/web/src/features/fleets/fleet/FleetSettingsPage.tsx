import { FleetSettings } from './FleetSettings.js';
import { useFleetContext } from '../../../fleet/useFleetContext.js';
import { RequireFleetPermission } from '../../../fleet/RequireFleetPermission.js';
import { opensFleetSettings } from '../../../fleet/fleet-settings-access.js';

// /{class}s/:fleetId/settings (resin.application.update; a member with a direct role may come to
// leave the fleet; anyone else goes home).
export const FleetSettingsPage = () => {
  const { fleet } = useFleetContext();
  return (
    <RequireFleetPermission
      fleetId={fleet.id}
      needs={{ resource: 'application', action: 'update' }}
      admits={opensFleetSettings}
    >
      <FleetSettings fleet={fleet} />
    </RequireFleetPermission>
  );
};
