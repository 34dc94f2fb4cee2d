import { describe, expect, it } from 'vitest';
import {
  blackListedVariableNames,
  configVarSchemaFor,
  invalidVariableNamePattern,
  variableNameProblem,
  whiteListedVariableNames,
} from './config-vars.js';

describe('variable naming rules', () => {
  it('accepts ordinary environment variable names', () => {
    expect(variableNameProblem('EDITOR', 'environment')).toBeUndefined();
    expect(variableNameProblem('my_var2', 'environment')).toBeUndefined();
  });

  it('refuses invalid characters and leading digits', () => {
    expect(invalidVariableNamePattern.test('1ABC')).toBe(true);
    expect(invalidVariableNamePattern.test('A-B')).toBe(true);
    expect(variableNameProblem('A B', 'environment')).toMatch(/letters, digits and underscores/);
  });

  it('wants a letter first, and allows colons in configuration names', () => {
    expect(variableNameProblem('_HIDDEN', 'environment')).toMatch(/must start with a letter/);
    expect(variableNameProblem('BALENA_HOST_CONFIG_dtoverlay:1', 'config')).toBeUndefined();
    expect(variableNameProblem('A:B', 'environment')).toMatch(/letters, digits and underscores/);
    expect(variableNameProblem('_BALENA_X', 'config')).toMatch(/must start with a letter/);
  });

  it('keeps the reserved namespaces for configuration variables', () => {
    expect(variableNameProblem('BALENA_X', 'environment')).toMatch(/reserved/);
    expect(variableNameProblem('RESIN_SUPERVISOR_LOCAL_MODE', 'config')).toBeUndefined();
    expect(variableNameProblem('BALENA_HOST_CONFIG_gpu_mem', 'config')).toBeUndefined();
    expect(variableNameProblem('EDITOR', 'config')).toMatch(/must begin with RESIN_ or BALENA_/);
  });

  it('refuses names the device agent sets itself', () => {
    expect(blackListedVariableNames).toContain('BALENA_DEVICE_UUID');
    expect(variableNameProblem('BALENA_API_KEY', 'config')).toMatch(/cannot be set/);
    expect(variableNameProblem('USER', 'environment')).toMatch(/cannot be set/);
  });

  it('lists user-settable supervisor settings under both prefixes', () => {
    expect(whiteListedVariableNames).toContain('RESIN_SUPERVISOR_POLL_INTERVAL');
    expect(whiteListedVariableNames).toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
  });

  it('adds host config settings only for config.txt device types', () => {
    expect(Object.keys(configVarSchemaFor().properties)).toContain(
      'BALENA_SUPERVISOR_POLL_INTERVAL',
    );
    expect(configVarSchemaFor().properties).not.toHaveProperty('BALENA_HOST_CONFIG_gpu_mem');
    expect(configVarSchemaFor('raspberrypi4-64').properties).toHaveProperty(
      'BALENA_HOST_CONFIG_gpu_mem',
    );
    expect(configVarSchemaFor('intel-nuc').properties).not.toHaveProperty(
      'BALENA_HOST_CONFIG_gpu_mem',
    );
  });
});
