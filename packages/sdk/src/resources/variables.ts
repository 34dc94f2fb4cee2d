import type { Application } from './application.js';
import type { Device } from './device.js';
import type { Service } from './device-state.js';
import type { DateTime, ToOne } from './field-types.js';

// Environment and configuration variables of fleets, services and devices (v7), and the
// service installs that device service variables hang under.

// v7 application_environment_variable: fleet-wide, every service of every device.
export type ApplicationEnvironmentVariable = {
  id: number;
  created_at: DateTime;
  application: ToOne<Application>;
  name: string;
  value: string;
};

// v7 application_config_variable: read by the device agent itself.
export type ApplicationConfigVariable = {
  id: number;
  application: ToOne<Application>;
  name: string;
  value: string;
};

// v7 service_environment_variable: one service of the fleet, every device.
export type ServiceEnvironmentVariable = {
  id: number;
  created_at: DateTime;
  service: ToOne<Service>;
  name: string;
  value: string;
};

// v7 device_environment_variable: every service of one device.
export type DeviceEnvironmentVariable = {
  id: number;
  created_at: DateTime;
  device: ToOne<Device>;
  name: string;
  value: string;
};

// v7 service_install: a service of the fleet on one device (created when the device reports it).
export type ServiceInstall = {
  id: number;
  created_at: DateTime;
  device: ToOne<Device>;
  installs__service: ToOne<Service>;
  // Reverse navigation, present only when expanded.
  device_service_environment_variable?: DeviceServiceEnvironmentVariable[];
};

// v7 device_service_environment_variable: one service of one device.
export type DeviceServiceEnvironmentVariable = {
  id: number;
  created_at: DateTime;
  service_install: ToOne<ServiceInstall>;
  name: string;
  value: string;
};

// What the console writes: the owner and name when creating, the value always.
export type VariableValueWrite = { name: string; value: string };
export type ApplicationVariableWrite = VariableValueWrite & { application: number };
export type ServiceVariableWrite = VariableValueWrite & { service: number };
export type DeviceVariableWrite = VariableValueWrite & { device: number };
export type DeviceServiceVariableWrite = VariableValueWrite & { service_install: number };
