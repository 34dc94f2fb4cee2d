import { describe, expect, it } from 'vitest';
import { configVarsAnswer, regexFromLiteral } from './config-vars-answer.js';
import { configVarSchemaFor } from './config-vars.js';
import {
  configNameProblem,
  configValueProblem,
  dataFileProblem,
  dataUrlMediaType,
  duplicateProblem,
  environmentNameProblem,
  isToggleOn,
  parseIntegerValue,
  variableMessages,
} from './variable-form-rules.js';

// The rules as the server serves them, read back from their JSON form.
const rules = JSON.parse(JSON.stringify(configVarsAnswer('raspberrypi4-64'))) as ReturnType<
  typeof configVarsAnswer
>;

describe('environment variable names', () => {
  it.each([
    ['', variableMessages.nameRequired],
    ['1ST', variableMessages.environmentName],
    ['_HIDDEN', variableMessages.environmentName],
    ['MY-VAR', variableMessages.environmentName],
    ['BALENA_SUPERVISOR_POLL_INTERVAL', variableMessages.configOnly],
    ['RESIN_HOST_CONFIG_gpu_mem', variableMessages.configOnly],
    ['USER', variableMessages.reservedEnvironment],
    ['BALENA_DEVICE_UUID', variableMessages.reservedEnvironment],
    [
      'BALENA_SOMETHING',
      'Variables beginning with RESIN_ or BALENA_ are managed through the Configuration page.',
    ],
  ])('%j: %s', (name, message) => {
    expect(environmentNameProblem(name, rules)).toBe(message);
  });

  it('accepts ordinary names', () => {
    expect(environmentNameProblem('GREETING', rules)).toBeUndefined();
    expect(environmentNameProblem('log_level2', rules)).toBeUndefined();
  });
});

describe('configuration variable names', () => {
  it.each([
    ['', variableMessages.nameRequired],
    ['9LIVES', variableMessages.configName],
    ['BALENA_X-Y', variableMessages.configName],
    ['BALENA_API_KEY', variableMessages.reservedConfig],
    ['POLL_INTERVAL', 'Configuration variables should begin with RESIN_ or BALENA_'],
  ])('%j: %s', (name, message) => {
    expect(configNameProblem(name, rules)).toBe(message);
  });

  it('accepts names in the namespaces, colons included', () => {
    expect(configNameProblem('BALENA_HOST_CONFIG_dtoverlay', rules)).toBeUndefined();
    expect(configNameProblem('RESIN_HOST_CONFIG_gpio:4', rules)).toBeUndefined();
  });
});

describe('duplicates and values', () => {
  it('reports a name already taken', () => {
    const taken = new Set(['A']);
    expect(duplicateProblem('A', (name) => taken.has(name))).toBe(variableMessages.alreadyExists);
    expect(duplicateProblem('B', (name) => taken.has(name))).toBeUndefined();
  });

  it('parses integers from strings and checks the schema', () => {
    const schema = configVarSchemaFor('raspberrypi4-64').properties;
    expect(parseIntegerValue(' 42 ')).toBe(42);
    expect(parseIntegerValue('4.2')).toBeUndefined();
    expect(configValueProblem('abc', schema.BALENA_SUPERVISOR_POLL_INTERVAL)).toBe(
      variableMessages.integer,
    );
    expect(configValueProblem('5000', schema.BALENA_SUPERVISOR_POLL_INTERVAL)).toBe(
      'Must be at least 10000',
    );
    expect(configValueProblem('60000', schema.BALENA_SUPERVISOR_POLL_INTERVAL)).toBeUndefined();
    expect(configValueProblem('4', schema.BALENA_SUPERVISOR_DELTA_VERSION)).toBe(
      'Must be one of 2, 3',
    );
    expect(configValueProblem('anything', undefined)).toBeUndefined();
    expect(configValueProblem('x'.repeat(100_001), undefined)).toMatch(/at most 100,000/);
  });

  it('reads toggles as on for true, 1 and "1"', () => {
    expect([true, 1, '1', 'true'].map(isToggleOn)).toEqual([true, true, true, true]);
    expect([false, 0, '0', 'false', undefined].map(isToggleOn)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('accepts PNG files up to the schema maximum for data-url variables', () => {
    const splash = configVarSchemaFor().properties.BALENA_HOST_SPLASH_IMAGE;
    if (!splash) throw new Error('no splash image property');
    expect(splash.format).toBe('data-url');
    expect(dataFileProblem({ type: 'image/png', size: 1000 }, splash)).toBeUndefined();
    expect(dataFileProblem({ type: 'image/jpeg', size: 1000 }, splash)).toBe(
      'Only PNG images are accepted',
    );
    expect(dataFileProblem({ type: 'image/png', size: 65_537 }, splash)).toBe(
      'The image may be at most 64 KB',
    );
    expect(dataUrlMediaType('data:image/png;base64,AAAA')).toBe('image/png');
    expect(dataUrlMediaType('plain text')).toBeUndefined();
  });

  it('reads regular expression literals back, and an unreadable one matches nothing', () => {
    expect(regexFromLiteral('/^a$/i').test('A')).toBe(true);
    expect(regexFromLiteral('not a literal').test('anything')).toBe(false);
    expect(regexFromLiteral('/(/').test('(')).toBe(false);
  });
});
