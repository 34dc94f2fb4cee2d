// The shapes the variables screens read and write, and the service id standing for "All services".

// Service 0 stands for "All services": a fleet-wide or device-wide variable rather than one of a
// single service.
export const allServices = 0;

export type NameValue = { id: number; name: string; value: string };

// A variable of the fleet: fleet-wide (service 0) or of one service.
export type FleetEnvVariable = NameValue & { serviceId: number };

export type ServiceOption = { id: number; name: string; inRelease: boolean };

export type FleetEnvironment = { variables: FleetEnvVariable[]; services: ServiceOption[] };

// A service of the fleet installed on the device, with the device's variables for it.
export type ServiceInstallRow = {
  id: number;
  serviceId: number;
  variables: NameValue[];
};

export type DeviceVariables = {
  environment: NameValue[];
  installs: ServiceInstallRow[];
  config: NameValue[];
};

// Which fleet variable the overrides dialog lists the device values of.
export type OverrideTarget =
  { kind: 'environment'; name: string; serviceId: number } | { kind: 'config'; name: string };

export type Override = {
  id: number;
  resource:
    | 'device_environment_variable'
    | 'device_service_environment_variable'
    | 'device_config_variable';
  value: string;
  device: { id: number; uuid: string; name: string };
};

export type VariableResource =
  | 'application_environment_variable'
  | 'application_config_variable'
  | 'service_environment_variable'
  | 'device_environment_variable'
  | 'device_config_variable'
  | 'device_service_environment_variable';

// Where a new variable goes. A device's service variable hangs under the service's install on
// the device, looked up when it is written.
export type VariableOwner =
  | { resource: 'application_environment_variable'; application: number }
  | { resource: 'application_config_variable'; application: number }
  | { resource: 'service_environment_variable'; service: number }
  | { resource: 'device_environment_variable'; device: number }
  | { resource: 'device_config_variable'; device: number }
  | { resource: 'device_service_environment_variable'; device: number; service: number };

export type VariableChange =
  | { action: 'create'; owner: VariableOwner; name: string; value: string }
  | { action: 'update'; resource: VariableResource; id: number; name: string; value: string }
  | { action: 'delete'; resource: VariableResource; id: number; name: string };

// Adding a device variable for a service the device does not run fails with this message.
export const serviceNotFound = 'Service not found';
