import { textLengthLimits } from '../constants/limits.js';
import { textLengthProblem } from '../constants/text-length.js';
import { type ConfigVarsAnswer, regexFromLiteral } from './config-vars-answer.js';
import type { ConfigVarProperty } from './config-vars.js';

// The console's checks of a variable form before anything is sent (its
// variable settings), on the naming rules GET /config/vars answers. The server applies its own
// (config-vars.ts) to every write; these give the same messages in the form.

export type NamingRules = Omit<ConfigVarsAnswer, 'configVarSchema'>;

const either = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

export const variableMessages = {
  nameRequired: 'Name is required',
  alreadyExists: 'A variable with this name already exists',
  environmentName:
    'Environment variable names must start with a letter and contain only letters, digits and underscores',
  configName:
    'Configuration variable names must start with a letter and contain only letters, digits, underscores and colons',
  configOnly: 'Configuration variables are managed through the Configuration page.',
  reservedEnvironment: 'This environment variable is reserved and cannot be used.',
  reservedConfig: 'This configuration variable is reserved and cannot be used.',
  reservedNamespace: (namespaces: readonly string[]): string =>
    `Variables beginning with ${either(namespaces)} are managed through the Configuration page.`,
  configNamespace: (namespaces: readonly string[]): string =>
    `Configuration variables should begin with ${either(namespaces)}`,
  serviceRequired: 'Service is required',
  valueTooLong: `The value may be at most ${textLengthLimits.text.toLocaleString('en')} characters`,
  integer: 'Must be a whole number',
  minimum: (minimum: number): string => `Must be at least ${minimum}`,
  oneOf: (values: readonly (string | number)[]): string =>
    `Must be one of ${values.map(String).join(', ')}`,
  fileType: (mediaType: string): string =>
    `Only ${mediaType.replace(/^image\//, '').toUpperCase()} images are accepted`,
  fileSize: (maxBytes: number): string =>
    `The image may be at most ${Math.floor(maxBytes / 1024)} KB`,
} as const;

const inAny = (name: string, namespaces: readonly string[]): boolean =>
  namespaces.some((namespace) => name.startsWith(namespace));

// Whether a name belongs on the Configuration page: a supervisor setting or a host family.
export const isConfigurationName = (name: string, rules: NamingRules): boolean =>
  rules.whiteListedNames.includes(name) || inAny(name, rules.whiteListedNamespaces);

// Environment variables of fleets, services and devices.
export const environmentNameProblem = (name: string, rules: NamingRules): string | undefined => {
  if (name.length === 0) return variableMessages.nameRequired;
  const tooLong = textLengthProblem('Name', name);
  if (tooLong !== undefined) return tooLong;
  if (regexFromLiteral(rules.invalidRegex).test(name)) return variableMessages.environmentName;
  if (isConfigurationName(name, rules)) return variableMessages.configOnly;
  if (rules.reservedNames.includes(name) || rules.blackListedNames.includes(name)) {
    return variableMessages.reservedEnvironment;
  }
  if (inAny(name, rules.reservedNamespaces)) {
    return variableMessages.reservedNamespace(rules.reservedNamespaces);
  }
  return undefined;
};

// Configuration variables of fleets and devices (the custom configuration tables).
export const configNameProblem = (name: string, rules: NamingRules): string | undefined => {
  if (name.length === 0) return variableMessages.nameRequired;
  const tooLong = textLengthProblem('Name', name);
  if (tooLong !== undefined) return tooLong;
  if (regexFromLiteral(rules.configVarInvalidRegex).test(name)) return variableMessages.configName;
  if (rules.reservedNames.includes(name) || rules.blackListedNames.includes(name)) {
    return variableMessages.reservedConfig;
  }
  if (!inAny(name, rules.reservedNamespaces)) {
    return variableMessages.configNamespace(rules.reservedNamespaces);
  }
  return undefined;
};

// A name already taken in the same place (same owner and service).
export const duplicateProblem = (
  name: string,
  taken: (name: string) => boolean,
): string | undefined => (taken(name) ? variableMessages.alreadyExists : undefined);

export const valueProblem = (value: string): string | undefined =>
  value.length > textLengthLimits.text ? variableMessages.valueTooLong : undefined;

// Integers arrive as strings from the API and the form alike.
export const parseIntegerValue = (value: string): number | undefined =>
  /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;

// A toggle is on for true, 1 or "1".
export const isToggleOn = (value: string | number | boolean | undefined): boolean =>
  value === true || value === 1 || value === '1' || value === 'true';

// What a switch writes: the supervisor reads "1" and "0" (and "true"/"false").
export const toggleValue = (on: boolean): string => (on ? '1' : '0');

// A two-value enum is toggled directly between its values.
export const isTwoValueEnum = (property: ConfigVarProperty): boolean =>
  property.enum !== undefined && property.enum.length === 2;

export const configValueProblem = (
  value: string,
  property: ConfigVarProperty | undefined,
): string | undefined => {
  const tooLong = valueProblem(value);
  if (tooLong || !property) return tooLong;
  if (property.type === 'integer') {
    const parsed = parseIntegerValue(value);
    if (parsed === undefined) return variableMessages.integer;
    if (property.minimum !== undefined && parsed < property.minimum) {
      return variableMessages.minimum(property.minimum);
    }
  }
  if (property.enum && !property.enum.map(String).includes(value.trim())) {
    return variableMessages.oneOf(property.enum);
  }
  return undefined;
};

// A file chosen for a data-url variable, checked before it is read.
export const dataFileProblem = (
  file: { type: string; size: number },
  property: ConfigVarProperty,
): string | undefined => {
  if (property.contentMediaType && file.type !== property.contentMediaType) {
    return variableMessages.fileType(property.contentMediaType);
  }
  if (property.maxFileSize !== undefined && file.size > property.maxFileSize) {
    return variableMessages.fileSize(property.maxFileSize);
  }
  return undefined;
};

// The media type of a data URL value, or undefined when the value is not one.
export const dataUrlMediaType = (value: string): string | undefined =>
  /^data:([\w.+-]+\/[\w.+-]+)[;,]/.exec(value)?.[1];
