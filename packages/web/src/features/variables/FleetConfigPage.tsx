import { VariablesScreen } from './VariablesScreen.js';

// /fleets/:id/config
export const FleetConfigPage = () => <VariablesScreen level="fleet" kind="config" />;
