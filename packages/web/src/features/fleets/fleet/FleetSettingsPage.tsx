import { FleetSettings } from './FleetSettings.js';
import { useFleetContext } from '../../../fleet/useFleetContext.js';
import { RequireFleetPermission } from '../../../fleet/RequireFleetPermission.js';

// /{class}s/:fleetId/settings needs resin.application.update; anyone else goes home. A member who
// may not change the fleet leaves it from the members page.
export const FleetSettingsPage = () => {
  const { fleet } = useFleetContext();
  return (
    <RequireFleetPermission
      fleetId={fleet.id}
      needs={{ resource: 'application', action: 'update' }}
    >
      <FleetSettings fleet={fleet} />
    </RequireFleetPermission>
  );
};
