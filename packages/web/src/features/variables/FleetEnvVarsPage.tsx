import { VariablesScreen } from './VariablesScreen.js';

// /fleets/:id/envvars
export const FleetEnvVarsPage = () => <VariablesScreen level="fleet" kind="environment" />;
