import { VariablesScreen } from './VariablesScreen.js';

// /devices/:uuid/config
export const DeviceConfigPage = () => <VariablesScreen level="device" kind="config" />;
