import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { textLengthLimits } from '@flotilla/shared/constants/limits';
import { posix } from 'node:path';
import { badRequest } from '../../infra/errors/api-error.js';
import type { BuildSecret } from './build-settings.js';
import { parseYaml } from './yaml-text.js';

// A docker-compose.yml as the builder reads it: each service names its image, or has a build
// step that the builder's container engine runs (build-release.ts).

// A service's `build:`: its context (a folder of the project), Dockerfile, build arguments and
// target stage.
export type BuildStep = {
  // Relative to the project's root, normalized, never outside it ('' is the root).
  context: string;
  // The Dockerfile's path in the context, when the compose file names one.
  dockerfile: string | undefined;
  args: Record<string, string>;
  target: string | undefined;
  // The files of .balena/secrets/ its build reads (build-settings.ts).
  secrets: BuildSecret[];
};

export type ComposeService = {
  name: string;
  // The image reference (`image:`), or null when the service only has a build step.
  image: string | null;
  // The service's `build:` step, which takes precedence over `image:` as in balena's builder.
  build: BuildStep | undefined;
  environment: Record<string, string>;
  labels: Record<string, string>;
};

export type ComposeProject = {
  // What the release stores as its composition.
  composition: Record<string, unknown>;
  services: ComposeService[];
};

const topLevelKeys = new Set(['version', 'services', 'volumes', 'networks', 'name']);

// The service keys balena's supervisor understands (docker-compose file format 2.x, the parts a
// device can apply); `x-` extensions are allowed anywhere, as in compose.
const serviceKeys = new Set([
  'build',
  'cap_add',
  'cap_drop',
  'cgroup_parent',
  'command',
  'container_name',
  'cpu_shares',
  'cpu_quota',
  'cpus',
  'cpuset',
  'depends_on',
  'devices',
  'device_cgroup_rules',
  'dns',
  'dns_opt',
  'dns_search',
  'domainname',
  'entrypoint',
  'environment',
  'expose',
  'extra_hosts',
  'group_add',
  'healthcheck',
  'hostname',
  'image',
  'init',
  'ipc',
  'labels',
  'links',
  'logging',
  'mac_address',
  'mem_limit',
  'mem_reservation',
  'memswap_limit',
  'network_mode',
  'networks',
  'oom_kill_disable',
  'oom_score_adj',
  'pid',
  'ports',
  'privileged',
  'read_only',
  'restart',
  'runtime',
  'security_opt',
  'shm_size',
  'stdin_open',
  'stop_grace_period',
  'stop_signal',
  'storage_opt',
  'sysctls',
  'tmpfs',
  'tty',
  'ulimits',
  'user',
  'userns_mode',
  'volumes',
  'working_dir',
]);

const serviceName = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;

// A Docker image reference: optional registry host[:port], lower-case path components, optional
// tag and digest (docker's reference grammar, without its rarer corners).
const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const host =
  '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?/)?';
const imageReference = new RegExp(
  `^${host}${component}(?:/${component})*(?::[\\w][\\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$`,
);

export const isImageReference = (value: string): boolean =>
  value.length <= textLengthLimits.name && imageReference.test(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownKeys = (value: Record<string, unknown>, known: Set<string>): string[] =>
  Object.keys(value).filter((key) => !known.has(key) && !key.startsWith('x-'));

const scalarText = (value: unknown): string | undefined => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
};

// `environment:` and `labels:` are a mapping or a list of KEY=value strings.
const keyValues = (value: unknown, what: string, where: string): Record<string, string> => {
  if (value === undefined) return {};
  const entries: [string, unknown][] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item !== 'string') throw badRequest(`${where}: ${what} entries must be KEY=value`);
      const at = item.indexOf('=');
      entries.push(at === -1 ? [item, ''] : [item.slice(0, at), item.slice(at + 1)]);
    }
  } else if (isRecord(value)) {
    entries.push(...Object.entries(value));
  } else {
    throw badRequest(`${where}: ${what} must be a mapping or a list of KEY=value`);
  }
  const result: Record<string, string> = {};
  for (const [key, raw] of entries) {
    const text = scalarText(raw);
    if (key === '' || key.length > textLengthLimits.name || text === undefined) {
      throw badRequest(`${where}: ${what} '${key.slice(0, 80)}' must be a name with a text value`);
    }
    result[key] = text;
  }
  return result;
};

// Build keys of compose file format 2.x; those not listed in BuildStep are accepted and not used.
const buildKeys = new Set([
  'context',
  'dockerfile',
  'args',
  'target',
  'labels',
  'cache_from',
  'extra_hosts',
  'network',
  'shm_size',
]);

// A relative path inside the project: no absolute path, no way out through '..'.
const projectPath = (value: string, what: string, where: string): string => {
  const normalized = posix.normalize(value.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (value.trim() === '' || posix.isAbsolute(normalized) || normalized.split('/').includes('..')) {
    throw badRequest(`${where}: '${what}' must be a path inside the project`);
  }
  return normalized === '.' ? '' : normalized;
};

const optionalBuildText = (value: unknown, what: string, where: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 1024) {
    throw badRequest(`${where}: 'build.${what}' must be a text`);
  }
  return value;
};

const readBuild = (value: unknown, where: string): BuildStep | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    return {
      context: projectPath(value, 'build', where),
      dockerfile: undefined,
      args: {},
      target: undefined,
      secrets: [],
    };
  }
  if (!isRecord(value)) throw badRequest(`${where}: 'build' must be a path or a mapping`);
  const unknown = unknownKeys(value, buildKeys);
  if (unknown.length > 0) {
    throw badRequest(
      `${where}: unknown build key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}`,
    );
  }
  const dockerfile = optionalBuildText(value.dockerfile, 'dockerfile', where);
  return {
    context: projectPath(
      optionalBuildText(value.context, 'context', where) ?? '.',
      'build.context',
      where,
    ),
    dockerfile:
      dockerfile === undefined ? undefined : projectPath(dockerfile, 'build.dockerfile', where),
    args: keyValues(value.args, 'build.args', where),
    target: optionalBuildText(value.target, 'target', where),
    secrets: [],
  };
};

const readService = (name: string, value: unknown): ComposeService => {
  const where = `Service '${name}'`;
  if (!serviceName.test(name)) {
    throw badRequest(
      `${where}: a service name is 1 to 63 letters, digits, '_', '.' or '-', starting with a letter or digit`,
    );
  }
  if (!isRecord(value)) throw badRequest(`${where} must be a mapping`);
  const unknown = unknownKeys(value, serviceKeys);
  if (unknown.length > 0) {
    throw badRequest(
      `${where}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}`,
    );
  }
  const image = value.image;
  if (image !== undefined && (typeof image !== 'string' || !isImageReference(image))) {
    throw badRequest(
      `${where}: 'image' must be an image reference such as nginx:1.27 or ghcr.io/owner/app@sha256:…`,
    );
  }
  const build = readBuild(value.build, where);
  if (image === undefined && build === undefined) {
    throw badRequest(`${where} names no image: add 'image: <reference>'`);
  }
  return {
    name,
    image: image ?? null,
    build,
    environment: keyValues(value.environment, 'environment', where),
    labels: keyValues(value.labels, 'labels', where),
  };
};

// Parses and checks a docker-compose.yml; every problem is a 400 naming it.
export const parseComposeFile = (text: string, fileName: string): ComposeProject => {
  const document = parseYaml(text, fileName);
  if (!isRecord(document)) throw badRequest(`${fileName} must be a mapping with 'services'`);
  const unknown = unknownKeys(document, topLevelKeys);
  if (unknown.length > 0) {
    throw badRequest(
      `${fileName}: unknown top-level key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}`,
    );
  }
  const services = document.services;
  if (!isRecord(services) || Object.keys(services).length === 0) {
    throw badRequest(`${fileName} has no services`);
  }
  const names = Object.keys(services);
  if (names.length > builderLimits.services) {
    throw badRequest(
      `${fileName} has ${names.length} services; at most ${builderLimits.services} are allowed`,
    );
  }
  for (const key of ['volumes', 'networks'] as const) {
    if (document[key] !== undefined && document[key] !== null && !isRecord(document[key])) {
      throw badRequest(`${fileName}: '${key}' must be a mapping`);
    }
  }
  const version = document.version;
  if (version !== undefined && typeof version !== 'string' && typeof version !== 'number') {
    throw badRequest(`${fileName}: 'version' must be a text such as '2.1'`);
  }
  return {
    composition: { ...document, version: version === undefined ? '2.1' : String(version) },
    services: names.map((name) => readService(name, services[name])),
  };
};

// balena's composition for a project that is one Dockerfile (or Dockerfile.template) at its root:
// one service, `main`, with the device access balena gives it.
export const singleDockerfileComposition = {
  version: '2.1',
  networks: {},
  volumes: { 'resin-data': {} },
  services: {
    main: {
      build: { context: '.' },
      privileged: true,
      tty: true,
      restart: 'always',
      network_mode: 'host',
      volumes: ['resin-data:/data'],
      labels: {
        'io.resin.features.kernel-modules': '1',
        'io.resin.features.firmware': '1',
        'io.resin.features.dbus': '1',
        'io.resin.features.supervisor-api': '1',
        'io.resin.features.resin-api': '1',
      },
    },
  },
};

export const singleDockerfileProject = (
  // Its Dockerfile when named otherwise (balena push --dockerfile).
  dockerfile?: string,
): ComposeProject => {
  const { main } = singleDockerfileComposition.services;
  return {
    composition: singleDockerfileComposition,
    services: [
      {
        name: 'main',
        image: null,
        build: { context: '', dockerfile, args: {}, target: undefined, secrets: [] },
        environment: {},
        labels: main.labels,
      },
    ],
  };
};
