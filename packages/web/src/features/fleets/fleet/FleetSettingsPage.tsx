import { FleetSettings } from './FleetSettings.js';
import { useFleetContext } from '../../../fleet/useFleetContext.js';

// /{class}s/:fleetId/settings
export const FleetSettingsPage = () => {
  const { fleet } = useFleetContext();
  return <FleetSettings fleet={fleet} />;
};
