import { VariablesScreen } from './VariablesScreen.js';

// /devices/:uuid/envvars
export const DeviceEnvVarsPage = () => <VariablesScreen level="device" kind="environment" />;
