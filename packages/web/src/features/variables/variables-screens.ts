import type { AgentProfile } from '@flotilla/shared/device-protocol/agent-profile-rules';
import type { VariableOwner, VariableResource } from './variable-model.js';
import { allServices } from './variable-model.js';

export type VariablesLevel = 'fleet' | 'device';
export type VariablesKind = 'environment' | 'config';
export type VariableAction = 'create' | 'update' | 'delete';

// What a variables screen shows its variables for: the fleet, or one device of it (which then
// inherits the fleet's values; deviceId is 0 on the fleet's screens).
export type VariablesSubject = {
  fleetId: number;
  deviceId: number;
  releaseId: number | null;
  deviceType: { slug: string; name: string } | undefined;
  // A device's agent profile (what it reported about itself): which settings it applies. Null
  // for a fleet, and for a device whose agent sent none (every setting applies).
  agentProfile?: AgentProfile | null;
  // A fleet's devices' profiles (null for a device without one), to mark the settings none of
  // them applies; null or absent when unknown.
  fleetAgentProfiles?: readonly (AgentProfile | null)[] | null;
};

// How the four variables screens differ: which resources hold the variables, which columns and
// texts the tables show, whether the fleet's values are inherited, whether devices overriding a
// fleet value can be listed, and whether the screen has a service filter or the configuration
// value controls of the device type's schema.
export type VariablesScreenSpec = {
  // Title of the device page section the device screens sit in.
  sectionTitle: string;
  heading: string;
  what: string;
  description: (deviceTypeName: string | undefined) => string;
  readOnlyNote: string;
  // Where a variable of "All services" lives, and one of a single service (environment only).
  resource: VariableResource;
  serviceResource: VariableResource | null;
  // The screen is read-only when none of these actions is allowed on any of its resources.
  editableBy: readonly VariableAction[];
  tableLabel: string;
  empty: (filtered: boolean) => string;
  // Device screens show the fleet value beside the device's own.
  inheritsFleet: boolean;
  // Fleet screens list the devices overriding a fleet value.
  overrides: boolean;
  overridesTooltip: string;
  // Environment screens: a service column, a service filter and a service choice when adding.
  services: boolean;
  // Configuration screens: the schema's settings with their value controls above the custom table.
  configControls: boolean;
  addLabel: string;
  // Delete's tooltip on a row with nothing inherited (with an inherited value it removes the override).
  deleteTitle: string;
  // Whether editing a row without a value of its own is titled as overriding it.
  overrideTitle: boolean;
};

const fleetEnvironment: VariablesScreenSpec = {
  sectionTitle: 'Variables',
  heading: 'Environment variables',
  what: 'variables',
  description: () =>
    'Every device of the fleet gets these variables in its services. A service variable overrides a fleet-wide one of the same name; a device can override both.',
  readOnlyNote: 'You can see the variables of this fleet but not change them.',
  resource: 'application_environment_variable',
  serviceResource: 'service_environment_variable',
  editableBy: ['create', 'update', 'delete'],
  tableLabel: 'Environment variables',
  empty: (filtered) =>
    filtered ? 'No variables for this service' : 'No environment variables yet',
  inheritsFleet: false,
  overrides: true,
  overridesTooltip: 'Devices overriding this variable',
  services: true,
  configControls: false,
  addLabel: 'Add variable',
  deleteTitle: 'Delete',
  overrideTitle: false,
};

export const variablesScreens: Record<
  VariablesLevel,
  Record<VariablesKind, VariablesScreenSpec>
> = {
  fleet: {
    environment: fleetEnvironment,
    config: {
      ...fleetEnvironment,
      sectionTitle: 'Configuration',
      heading: 'Configuration',
      what: 'configuration',
      description: (deviceTypeName) =>
        `Settings of the device agent and the host OS of every device of the fleet${deviceTypeName === undefined ? '' : ` (${deviceTypeName})`}. A device can override each of them on its own configuration page.`,
      readOnlyNote: 'You can see the configuration of this fleet but not change it.',
      resource: 'application_config_variable',
      serviceResource: null,
      editableBy: ['create'],
      tableLabel: 'Custom configuration',
      empty: () => 'No custom configuration variables',
      overridesTooltip: 'Devices overriding this setting',
      services: false,
      configControls: true,
      addLabel: 'Add custom variable',
    },
  },
  device: {
    environment: {
      ...fleetEnvironment,
      description: () =>
        "The device runs its services with the fleet's variables unless it sets its own value.",
      readOnlyNote: 'You can see the variables of this device but not change them.',
      resource: 'device_environment_variable',
      serviceResource: 'device_service_environment_variable',
      editableBy: ['create'],
      tableLabel: 'Device environment variables',
      empty: () => 'No environment variables for this device',
      inheritsFleet: true,
      overrides: false,
      overrideTitle: true,
    },
    config: {
      ...fleetEnvironment,
      sectionTitle: 'Configuration',
      heading: 'Configuration',
      what: 'configuration',
      description: () => "The device uses its fleet's configuration unless it sets its own value.",
      readOnlyNote: 'You can see the configuration of this device but not change it.',
      resource: 'device_config_variable',
      serviceResource: null,
      editableBy: ['create'],
      tableLabel: 'Device configuration',
      empty: () => 'No custom configuration variables',
      inheritsFleet: true,
      overrides: false,
      services: false,
      configControls: true,
      addLabel: 'Add custom variable',
      deleteTitle: 'Remove (back to the default)',
    },
  },
};

export const resourceOf = (spec: VariablesScreenSpec, serviceId: number): VariableResource =>
  serviceId === allServices || spec.serviceResource === null ? spec.resource : spec.serviceResource;

// Where a new variable of the screen goes.
export const ownerOf = (
  spec: VariablesScreenSpec,
  subject: VariablesSubject,
  serviceId: number,
): VariableOwner => {
  const resource = resourceOf(spec, serviceId);
  switch (resource) {
    case 'application_environment_variable':
    case 'application_config_variable':
      return { resource, application: subject.fleetId };
    case 'service_environment_variable':
      return { resource, service: serviceId };
    case 'device_environment_variable':
    case 'device_config_variable':
      return { resource, device: subject.deviceId };
    case 'device_service_environment_variable':
      return { resource, device: subject.deviceId, service: serviceId };
  }
};
