import { posix } from 'node:path';
import { badRequest } from '../../infra/errors/api-error.js';
import type { ComposeProject } from './compose-file.js';
import { parseYaml } from './yaml-text.js';

// The project's build settings, balena's `.balena/balena.yml` (not the root balena.yml, which
// is the release's contract): build variables handed to the builds as build arguments, and build
// secrets, files of `.balena/secrets/` a build reads at /run/secrets/<dest>.

export const buildSettingsPath = '.balena/balena.yml';

// A file of `.balena/secrets/` (`source`) that a build reads at /run/secrets/<dest>.
export type BuildSecret = { source: string; dest: string };

// A service's own entries are kept by its name (a Map: a service may be called `constructor`).
type Scoped<T> = { global: T[]; services: Map<string, T[]> };

export type BuildSettings = {
  variables: Scoped<[string, string]>;
  secrets: Scoped<BuildSecret>;
};

const noSettings = (): BuildSettings => ({
  variables: { global: [], services: new Map() },
  secrets: { global: [], services: new Map() },
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A build argument's name, as the engine takes it.
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

const refuse = (message: string): never => {
  throw badRequest(`${buildSettingsPath}: ${message}`);
};

// balena's form: `- NAME=value` (the value may hold '=' and be empty).
const readVariable = (item: unknown, where: string): [string, string] => {
  const text =
    typeof item === 'string'
      ? item
      : refuse(`'${where}' must be a list of NAME=value, got ${JSON.stringify(item)}`);
  const equals = text.indexOf('=');
  const name = equals < 0 ? text : text.slice(0, equals);
  if (equals < 0 || !variableName.test(name)) {
    refuse(`'${where}' must be a list of NAME=value, got '${text.slice(0, 80)}'`);
  }
  return [name, text.slice(equals + 1)];
};

// A file name or path of plain characters (it becomes part of a mount's options): no absolute
// path, no '..'.
const plainPath = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

const relativePath = (value: unknown, what: string, where: string): string => {
  if (typeof value !== 'string' || value.trim() === '') {
    return refuse(`'${where}' entries need '${what}', a file name`);
  }
  const normalized = posix.normalize(value);
  if (
    !plainPath.test(normalized) ||
    normalized.split('/').some((part) => part === '..' || part === '.')
  ) {
    return refuse(
      `'${where}': '${what}' must be a path inside its folder of letters, digits, '.', '_', '-' and '/', got '${value.slice(0, 80)}'`,
    );
  }
  return normalized;
};

const readSecret = (item: unknown, where: string): BuildSecret => {
  if (!isRecord(item)) return refuse(`'${where}' must be a list of { source, dest }`);
  return {
    source: relativePath(item.source, 'source', where),
    dest: relativePath(item.dest, 'dest', where),
  };
};

const readScoped = <T>(
  value: unknown,
  key: string,
  readItem: (item: unknown, where: string) => T,
): Scoped<T> => {
  if (value === undefined || value === null) return { global: [], services: new Map() };
  if (!isRecord(value)) return refuse(`'${key}' must be a mapping of 'global' and 'services'`);
  const list = (items: unknown, where: string): T[] => {
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items)) return refuse(`'${where}' must be a list`);
    return items.map((item) => readItem(item, where));
  };
  const services = value.services ?? {};
  if (!isRecord(services)) return refuse(`'${key}.services' must be a mapping of service names`);
  return {
    global: list(value.global, `${key}.global`),
    services: new Map(
      Object.entries(services).map(([name, items]) => [
        name,
        list(items, `${key}.services.${name}`),
      ]),
    ),
  };
};

// Parses `.balena/balena.yml`; every problem is a 400 naming it. Other keys are balena's too
// (such as its registry secrets) and are left alone.
export const parseBuildSettings = (text: string | undefined): BuildSettings => {
  if (text === undefined) return noSettings();
  const document = parseYaml(text, buildSettingsPath);
  if (document === null || document === undefined) return noSettings();
  if (!isRecord(document)) return refuse('it must be a mapping');
  return {
    variables: readScoped(document['build-variables'], 'build-variables', readVariable),
    secrets: readScoped(document['build-secrets'], 'build-secrets', readSecret),
  };
};

// Each built service gets the global build variables, then its own, then the `args` of its
// compose file's build step, a later one taking precedence; and its secrets, global and its own.
export const applyBuildSettings = (
  project: ComposeProject,
  settings: BuildSettings,
): ComposeProject => ({
  ...project,
  services: project.services.map((service) =>
    service.build === undefined
      ? service
      : {
          ...service,
          build: {
            ...service.build,
            args: {
              ...Object.fromEntries(settings.variables.global),
              ...Object.fromEntries(settings.variables.services.get(service.name) ?? []),
              ...service.build.args,
            },
            secrets: [
              ...settings.secrets.global,
              ...(settings.secrets.services.get(service.name) ?? []),
            ],
          },
        },
  ),
});
