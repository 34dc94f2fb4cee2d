import {
  blackListedVariableNames,
  type ConfigVarSchema,
  configVarSchemaFor,
  invalidConfigVariableNamePattern,
  invalidVariableNamePattern,
  reservedVariableNames,
  reservedVariableNamespaces,
  whiteListedVariableNames,
  whiteListedVariableNamespaces,
} from './config-vars.js';

// GET /config/vars, in balena's field names: the naming rules and the configuration schema of a
// device type. The server answers it; the console validates its forms with it, so a change of
// the rules on the server reaches the forms without a new console.
export type ConfigVarsAnswer = {
  reservedNames: readonly string[];
  reservedNamespaces: readonly string[];
  // Regular expressions as JavaScript literals ("/^[^A-Za-z]|\\W/"): a name they match is invalid.
  invalidRegex: string;
  configVarInvalidRegex: string;
  whiteListedNames: readonly string[];
  whiteListedNamespaces: readonly string[];
  blackListedNames: readonly string[];
  configVarSchema: ConfigVarSchema;
};

export const configVarsAnswer = (deviceTypeSlug?: string): ConfigVarsAnswer => ({
  reservedNames: reservedVariableNames,
  reservedNamespaces: reservedVariableNamespaces,
  invalidRegex: invalidVariableNamePattern.toString(),
  configVarInvalidRegex: invalidConfigVariableNamePattern.toString(),
  whiteListedNames: whiteListedVariableNames,
  whiteListedNamespaces: whiteListedVariableNamespaces,
  blackListedNames: blackListedVariableNames,
  configVarSchema: configVarSchemaFor(deviceTypeSlug),
});

// A "/pattern/flags" literal back to a RegExp; an unreadable one matches nothing (the server
// still checks every name).
export const regexFromLiteral = (literal: string): RegExp => {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(literal);
  try {
    return match ? new RegExp(match[1] ?? '', match[2]) : /(?!)/;
  } catch {
    return /(?!)/;
  }
};
