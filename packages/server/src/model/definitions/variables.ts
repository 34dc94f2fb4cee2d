import type { FieldDefinition, ResourceDefinition } from '../model-types.js';
import { createdAt, id, keyValue, ref } from './field-kinds.js';
import { alias, applicationOfDevice, applicationOfService, lookup } from './sql-helpers.js';

// The owner foreign key of a variable: required, fixed once created.
const owner = (target: string, reverse: readonly string[]): FieldDefinition =>
  ref(target, reverse, { required: true, createOnly: true });

const fleetScoped = { application: (row: string) => `${row}."application"` };

const deviceScoped = {
  application: (row: string) => applicationOfDevice(`${row}."device"`, row),
  device: (row: string) => `${row}."device"`,
};

// Environment, configuration and build variables of fleets, services and devices. Each is unique
// per (owner, name) so the SDK's POST-then-PATCH upsert gets its 409.
export const variableResources: Record<string, ResourceDefinition> = {
  application_environment_variable: {
    alternateKeys: [['application', 'name']],
    fields: {
      id,
      created_at: createdAt,
      application: owner('application', [
        'application__has__env_var_name',
        'application_environment_variable',
      ]),
      ...keyValue('name'),
    },
    scope: fleetScoped,
  },
  application_config_variable: {
    alternateKeys: [['application', 'name']],
    fields: {
      id,
      application: owner('application', [
        'application__has__config_var_name',
        'application_config_variable',
      ]),
      ...keyValue('name'),
    },
    scope: fleetScoped,
  },
  build_environment_variable: {
    alternateKeys: [['application', 'name']],
    fields: {
      id,
      created_at: createdAt,
      application: owner('application', [
        'application__has__build_var_name',
        'build_environment_variable',
      ]),
      ...keyValue('name'),
    },
    scope: fleetScoped,
  },
  service_environment_variable: {
    alternateKeys: [['service', 'name']],
    fields: {
      id,
      created_at: createdAt,
      service: owner('service', [
        'application__has__service_name__has__name',
        'service__has__name',
        'service_environment_variable',
      ]),
      ...keyValue('name'),
    },
    synonyms: { application__has__service_name: 'service' },
    scope: { application: (row) => applicationOfService(`${row}."service"`, row) },
  },
  device_environment_variable: {
    alternateKeys: [['device', 'name']],
    fields: {
      id,
      created_at: createdAt,
      device: owner('device', ['device__has__env_var_name', 'device_environment_variable']),
      ...keyValue('name'),
    },
    scope: deviceScoped,
  },
  device_config_variable: {
    alternateKeys: [['device', 'name']],
    fields: {
      id,
      device: owner('device', ['device__has__config_var_name', 'device_config_variable']),
      ...keyValue('name'),
    },
    scope: deviceScoped,
  },
  device_service_environment_variable: {
    alternateKeys: [['service_install', 'name']],
    fields: {
      id,
      created_at: createdAt,
      service_install: owner('service_install', [
        'device__installs__application__has__service_name__has__name',
        'device__installs__service__has__name',
        'device__installs__service_environment_variable',
        'service_install__has__name',
        'device_service_environment_variable',
      ]),
      ...keyValue('name'),
    },
    synonyms: {
      device__installs__application__has__service_name: 'service_install',
      device__installs__service: 'service_install',
    },
    scope: {
      application: (row) =>
        applicationOfDevice(
          lookup('service_install', 'device', `${row}."service_install"`, alias('si', row)),
          row,
        ),
      device: (row) =>
        lookup('service_install', 'device', `${row}."service_install"`, alias('si', row)),
    },
  },
};
