import { pollIntervalLimits } from '@flotilla/shared/device-protocol/poll-interval';
import { readFile, rename, writeFile } from 'node:fs/promises';

// A command as argv (never through a shell); `{service}` in an argument is replaced by the
// service name where a service is meant.
export type Command = readonly string[];

// What a real device's agent may do on the host (config.json "flotilla" section).
export type HostSettings = {
  rebootCommand: Command;
  shutdownCommand: Command;
  // Optional: e.g. a script that flashes an LED. Identify always writes a log line.
  blinkCommand: Command | null;
  // Optional: how services named in the target state are observed and controlled (e.g.
  // systemctl units). Without `status` the agent cannot tell whether they run.
  serviceCommands: {
    status: Command | null;
    start: Command | null;
    stop: Command | null;
    restart: Command | null;
  };
  // An update lock is held while any of these files exists (balena's lock file locations).
  updateLockPaths: readonly string[];
  osVersion: string | null;
  osVariant: string | null;
  // Optional: where the agent writes each service's variables, as `<service>.env` (systemd
  // EnvironmentFile= and POSIX shell syntax), for the services to read.
  serviceEnvironmentDir: string | null;
  // The web terminal: the host OS shell, and the command opening a shell in a service
  // (`{service}` replaced, e.g. ["docker", "exec", "-it", "{service}", "sh"]); without it a
  // service's terminal is refused.
  terminalShell: Command;
  serviceShell: Command | null;
  // The local port the public device URL reaches (the device's web server on 127.0.0.1).
  webServerPort: number;
  // The container engine that runs the fleet's releases: 'auto' finds one (DOCKER_HOST, then
  // balena-engine's and Docker's sockets), 'none' never runs containers, or a socket path.
  containerEngine: string;
  // Where each service's update lock directory lives on the host (its /tmp/balena).
  containerLockDir: string;
  // Where the agent keeps the packages it updated itself to (default: beside config.json).
  agentHome: string | null;
  // How often the supervisor release is looked up, and how long a new package has to report in.
  supervisorCheckInterval: number;
  selfUpdateHealthTimeout: number;
  // The operator lets the host OS be updated by the release's updater image (docs/HOST-OS.md).
  hostOsUpdates: boolean;
};

export type AgentConfig = {
  apiEndpoint: string;
  applicationId: number;
  deviceType: string;
  // balena writes the provisioning key as `apiKey`; `provisioningApiKey` is accepted too.
  provisioningApiKey: string | null;
  uuid: string | null;
  deviceApiKey: string | null;
  deviceId: number | null;
  // Milliseconds since the epoch; present once registration succeeded.
  registeredAt: number | null;
  userId: number | null;
  appUpdatePollInterval: number;
  host: HostSettings;
};

export const defaultHostSettings: HostSettings = {
  rebootCommand: ['systemctl', 'reboot'],
  shutdownCommand: ['systemctl', 'poweroff'],
  blinkCommand: null,
  serviceCommands: { status: null, start: null, stop: null, restart: null },
  updateLockPaths: ['/tmp/balena/updates.lock', '/tmp/resin/resin-updates.lock'],
  osVersion: null,
  osVariant: null,
  serviceEnvironmentDir: null,
  terminalShell: ['/bin/sh'],
  serviceShell: null,
  webServerPort: 80,
  containerEngine: 'auto',
  containerLockDir: '/tmp/flotilla-agent/locks',
  agentHome: null,
  supervisorCheckInterval: 300_000,
  selfUpdateHealthTimeout: 300_000,
  hostOsUpdates: false,
};

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid agent configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A tiny validator: collects every problem so the user fixes the file in one go.
class Reader {
  readonly problems: string[] = [];
  constructor(
    readonly raw: Raw,
    readonly prefix = '',
  ) {}

  string(key: string, required: boolean): string | null {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') {
      if (required) this.problems.push(`${this.prefix}${key} is required`);
      return null;
    }
    if (typeof value !== 'string') {
      this.problems.push(`${this.prefix}${key} must be a string`);
      return null;
    }
    return value;
  }

  // balena tools write some numbers as strings ("applicationId": "123").
  integer(key: string, required: boolean, min = 0): number | null {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') {
      if (required) this.problems.push(`${this.prefix}${key} is required`);
      return null;
    }
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < min) {
      this.problems.push(`${this.prefix}${key} must be an integer of at least ${min}`);
      return null;
    }
    return number;
  }

  command(key: string): Command | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    if (
      !Array.isArray(value) ||
      value.length === 0 ||
      !value.every((part) => typeof part === 'string')
    ) {
      this.problems.push(`${this.prefix}${key} must be a non-empty array of strings (argv)`);
      return null;
    }
    return value;
  }
}

const parseHostSettings = (raw: unknown, problems: string[]): HostSettings => {
  if (raw === undefined) return defaultHostSettings;
  if (!isRecord(raw)) {
    problems.push('flotilla must be an object');
    return defaultHostSettings;
  }
  const read = new Reader(raw, 'flotilla.');
  const services = isRecord(raw.serviceCommands) ? raw.serviceCommands : {};
  const readServices = new Reader(services, 'flotilla.serviceCommands.');
  const lockPaths = raw.updateLockPaths;
  let updateLockPaths = defaultHostSettings.updateLockPaths;
  if (lockPaths !== undefined) {
    if (Array.isArray(lockPaths) && lockPaths.every((path) => typeof path === 'string')) {
      updateLockPaths = lockPaths;
    } else problems.push('flotilla.updateLockPaths must be an array of paths');
  }
  const settings: HostSettings = {
    rebootCommand: read.command('rebootCommand') ?? defaultHostSettings.rebootCommand,
    shutdownCommand: read.command('shutdownCommand') ?? defaultHostSettings.shutdownCommand,
    blinkCommand: read.command('blinkCommand'),
    serviceCommands: {
      status: readServices.command('status'),
      start: readServices.command('start'),
      stop: readServices.command('stop'),
      restart: readServices.command('restart'),
    },
    updateLockPaths,
    osVersion: read.string('osVersion', false),
    osVariant: read.string('osVariant', false),
    serviceEnvironmentDir: read.string('serviceEnvironmentDir', false),
    terminalShell: read.command('terminalShell') ?? defaultHostSettings.terminalShell,
    serviceShell: read.command('serviceShell'),
    webServerPort: read.integer('webServerPort', false, 1) ?? defaultHostSettings.webServerPort,
    containerEngine: read.string('containerEngine', false) ?? defaultHostSettings.containerEngine,
    containerLockDir:
      read.string('containerLockDir', false) ?? defaultHostSettings.containerLockDir,
    agentHome: read.string('agentHome', false),
    supervisorCheckInterval:
      read.integer('supervisorCheckInterval', false, 1000) ??
      defaultHostSettings.supervisorCheckInterval,
    selfUpdateHealthTimeout:
      read.integer('selfUpdateHealthTimeout', false, 1000) ??
      defaultHostSettings.selfUpdateHealthTimeout,
    hostOsUpdates: raw.hostOsUpdates === true,
  };
  if (raw.hostOsUpdates !== undefined && typeof raw.hostOsUpdates !== 'boolean') {
    problems.push('flotilla.hostOsUpdates must be true or false');
  }
  if (
    !['auto', 'none'].includes(settings.containerEngine) &&
    !settings.containerEngine.startsWith('/')
  ) {
    problems.push(
      "flotilla.containerEngine must be 'auto', 'none' or the engine socket's absolute path",
    );
  }
  if (!settings.containerLockDir.startsWith('/')) {
    problems.push('flotilla.containerLockDir must be an absolute path');
  }
  if (settings.webServerPort > 65_535)
    problems.push('flotilla.webServerPort must be a port (1 to 65535)');
  if (settings.serviceEnvironmentDir !== null && !settings.serviceEnvironmentDir.startsWith('/')) {
    problems.push('flotilla.serviceEnvironmentDir must be an absolute path');
  }
  problems.push(...read.problems, ...readServices.problems);
  return settings;
};

export const parseAgentConfig = (raw: unknown): AgentConfig => {
  if (!isRecord(raw)) throw new ConfigError(['the file must hold a JSON object']);
  const read = new Reader(raw);
  const apiEndpoint = read.string('apiEndpoint', true);
  if (apiEndpoint !== null && !/^https?:\/\/[^/\s]+/.test(apiEndpoint)) {
    read.problems.push('apiEndpoint must be an http(s) URL');
  }
  const applicationId = read.integer('applicationId', true, 1);
  const deviceType = read.string('deviceType', true);
  const provisioningApiKey =
    read.string('apiKey', false) ?? read.string('provisioningApiKey', false);
  const uuid = read.string('uuid', false);
  if (uuid !== null && !/^[0-9a-f]{32}([0-9a-f]{30})?$/.test(uuid)) {
    read.problems.push('uuid must be 32 or 62 lower-case hex characters');
  }
  const deviceApiKey = read.string('deviceApiKey', false);
  if (provisioningApiKey === null && deviceApiKey === null) {
    read.problems.push('apiKey (the provisioning key) or deviceApiKey is required');
  }
  const poll = read.integer('appUpdatePollInterval', false, pollIntervalLimits.minimumMs);
  const problems = read.problems;
  const host = parseHostSettings(raw.flotilla, problems);
  const config = {
    apiEndpoint,
    applicationId,
    deviceType,
    provisioningApiKey,
    uuid,
    deviceApiKey,
    deviceId: read.integer('deviceId', false, 1),
    registeredAt: read.integer('registered_at', false),
    userId: read.integer('userId', false, 1),
    appUpdatePollInterval: poll ?? pollIntervalLimits.defaultMs,
    host,
  };
  if (
    problems.length > 0 ||
    apiEndpoint === null ||
    applicationId === null ||
    deviceType === null
  ) {
    throw new ConfigError(problems);
  }
  return { ...config, apiEndpoint, applicationId, deviceType };
};

export const loadAgentConfig = async (path: string): Promise<AgentConfig> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError([
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    ]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${path} is not valid JSON: ${(error as Error).message}`]);
  }
  return parseAgentConfig(raw);
};

// Merges `changes` into the file, keeping every key we do not know (balena's config.json holds
// many), through a temporary file and a rename so a power cut never leaves half a config.
export const updateConfigFile = async (path: string, changes: Raw): Promise<void> => {
  const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (!isRecord(raw)) throw new ConfigError([`${path} no longer holds a JSON object`]);
  const next = { ...raw, ...changes };
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
};
