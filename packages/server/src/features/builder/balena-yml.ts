import { textLengthLimits } from '@flotilla/shared/constants/limits';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseYaml } from './yaml-text.js';

// balena.yml, the project's contract: its name, version, default device type and the fleet
// variables it needs. The release keeps it as its contract.
export type ProjectContract = {
  contract: Record<string, unknown>;
  name: string | undefined;
  version: string | undefined;
  defaultDeviceType: string | undefined;
  supportedDeviceTypes: string[];
  environmentVariables: [string, string][];
  configVariables: [string, string][];
};

// Full semver, as the release's version column takes it (the database trigger checks the same).
const semver =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

const contractTypes = ['sw.application', 'sw.block'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalText = (value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > textLengthLimits.name) {
    throw badRequest(
      `balena.yml: '${what}' must be a text of at most ${textLengthLimits.name} characters`,
    );
  }
  return value;
};

// balena's form: a list of one-entry mappings, `- NAME: value`.
const variables = (value: unknown, what: string): [string, string][] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw badRequest(`balena.yml: '${what}' must be a list of NAME: value`);
  return value.flatMap((item): [string, string][] => {
    if (!isRecord(item)) throw badRequest(`balena.yml: '${what}' must be a list of NAME: value`);
    return Object.entries(item).map(([name, raw]): [string, string] => {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
        throw badRequest(`balena.yml: the value of ${what} '${name.slice(0, 80)}' must be a text`);
      }
      return [name, String(raw)];
    });
  });
};

export const parseBalenaYml = (text: string): ProjectContract => {
  const document = parseYaml(text, 'balena.yml');
  if (!isRecord(document)) throw badRequest('balena.yml must be a mapping');
  const type = document.type;
  if (type !== undefined && (typeof type !== 'string' || !contractTypes.includes(type))) {
    throw badRequest(`balena.yml: 'type' must be one of ${contractTypes.join(', ')}`);
  }
  const rawVersion = document.version;
  const version =
    typeof rawVersion === 'number' ? String(rawVersion) : optionalText(rawVersion, 'version');
  if (version !== undefined && !semver.test(version)) {
    throw badRequest(
      `balena.yml: 'version' must be a semantic version such as 1.2.3, got '${version.slice(0, 80)}'`,
    );
  }
  const data = document.data === undefined ? {} : document.data;
  if (!isRecord(data)) throw badRequest("balena.yml: 'data' must be a mapping");
  const supported = data.supportedDeviceTypes;
  if (
    supported !== undefined &&
    (!Array.isArray(supported) || !supported.every((item) => typeof item === 'string'))
  ) {
    throw badRequest("balena.yml: 'data.supportedDeviceTypes' must be a list of device types");
  }
  return {
    contract: document,
    name: optionalText(document.name, 'name'),
    version,
    defaultDeviceType: optionalText(data.defaultDeviceType, 'data.defaultDeviceType'),
    supportedDeviceTypes: supported ?? [],
    environmentVariables: variables(
      data.applicationEnvironmentVariables,
      'data.applicationEnvironmentVariables',
    ),
    configVariables: variables(data.applicationConfigVariables, 'data.applicationConfigVariables'),
  };
};
