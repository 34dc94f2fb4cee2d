import { parseArgs } from 'node:util';
import type { LogLevel } from './logger.js';
import { isUpdateFault, type UpdateFault, updateFaults } from './engine/update-faults.js';

export type RealCommand = { mode: 'real'; configPath: string; logLevel: LogLevel };

export type SimulateCommand = {
  mode: 'simulate';
  count: number;
  fleet: string;
  provisioningKey: string;
  api: string;
  pollIntervalMs: number;
  reportIntervalMs: number | undefined;
  metricsIntervalMs: number | undefined;
  deviceType: string | undefined;
  stateDir: string | undefined;
  updateLockChance: number;
  diskFullChance: number;
  osUpdateFailureChance: number;
  updateFaultChance: number;
  updateFault: UpdateFault;
  startSpreadMs: number | undefined;
  seed: number | undefined;
  logLevel: LogLevel;
};

export type CliCommand = RealCommand | SimulateCommand | { mode: 'help' } | { mode: 'version' };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const usage = `Usage:
  flotilla-agent --config <config.json>              run as this device's agent
  flotilla-agent --simulate <N> --fleet <slug> --provisioning-key <key> --api <url>
                                                     run N simulated devices

Simulator options:
  --poll-interval <duration>     target-state poll interval (default 10s)
  --report-interval <duration>   minimum spacing of state reports (default 10s)
  --metrics-interval <duration>  minimum spacing of metrics (default 5m)
  --device-type <slug>           one device type for all (default: the fleet's, mixed
                                 with compatible types)
  --state-dir <dir>              keep device identities here, so restarts reuse devices
  --lock-chance <0..1>           share of devices holding an update lock (default 0)
  --disk-full-chance <0..1>      share of devices whose disk is full (default 0)
  --os-update-failure-chance <0..1>
                                 share of host OS updates that fail and roll back (default 0)
  --update-fault-chance <0..1>   share of devices a new release breaks (default 0)
  --update-fault <kind>          what it does to them: crash-loop, failing-check or
                                 offline (default crash-loop)
  --start-spread <duration>      spread the device starts over this long
  --seed <integer>               reproducible names and types

Common options:
  --log-level <debug|info|warn|error>   (default info)
  --help, --version

Durations: 500ms, 10s, 5m, 1h; a bare number means seconds.
Environment: FLOTILLA_API and FLOTILLA_PROVISIONING_KEY stand in for --api and
--provisioning-key (keeps the key out of the process list).`;

export const parseDuration = (value: string, flag: string): number => {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new UsageError(`${flag} expects a duration such as 10s, 500ms or 5m`);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return Math.round(Number(match[1]) * factor);
};

const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

const parseLogLevel = (value: string | undefined): LogLevel => {
  if (value === undefined) return 'info';
  const level = logLevels.find((candidate) => candidate === value);
  if (!level) throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}`);
  return level;
};

const optionalDuration = (value: string | undefined, flag: string): number | undefined =>
  value === undefined ? undefined : parseDuration(value, flag);

export const parseCli = (argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliCommand => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string' },
        simulate: { type: 'string' },
        fleet: { type: 'string' },
        'provisioning-key': { type: 'string' },
        api: { type: 'string' },
        'poll-interval': { type: 'string' },
        'report-interval': { type: 'string' },
        'metrics-interval': { type: 'string' },
        'device-type': { type: 'string' },
        'state-dir': { type: 'string' },
        'lock-chance': { type: 'string' },
        'disk-full-chance': { type: 'string' },
        'os-update-failure-chance': { type: 'string' },
        'update-fault-chance': { type: 'string' },
        'update-fault': { type: 'string' },
        'start-spread': { type: 'string' },
        seed: { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { mode: 'help' };
  if (values.version) return { mode: 'version' };
  const logLevel = parseLogLevel(values['log-level']);
  if (values.config !== undefined && values.simulate !== undefined) {
    throw new UsageError('--config and --simulate exclude each other');
  }
  if (values.config !== undefined) return { mode: 'real', configPath: values.config, logLevel };
  if (values.simulate === undefined) throw new UsageError('give --config <file> or --simulate <N>');
  const count = Number(values.simulate);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError('--simulate expects a positive integer');
  const fleet = values.fleet;
  const provisioningKey = values['provisioning-key'] ?? env.FLOTILLA_PROVISIONING_KEY;
  const api = values.api ?? env.FLOTILLA_API;
  const missing = [
    fleet === undefined ? '--fleet' : null,
    provisioningKey === undefined ? '--provisioning-key' : null,
    api === undefined ? '--api' : null,
  ].filter((flag) => flag !== null);
  if (fleet === undefined || provisioningKey === undefined || api === undefined) {
    throw new UsageError(`--simulate also needs ${missing.join(', ')}`);
  }
  if (!/^https?:\/\/[^/\s]+/.test(api)) throw new UsageError('--api must be an http(s) URL');
  const chance = values['lock-chance'] === undefined ? 0 : Number(values['lock-chance']);
  if (!(chance >= 0 && chance <= 1)) throw new UsageError('--lock-chance must be between 0 and 1');
  const diskFull =
    values['disk-full-chance'] === undefined ? 0 : Number(values['disk-full-chance']);
  if (!(diskFull >= 0 && diskFull <= 1))
    throw new UsageError('--disk-full-chance must be between 0 and 1');
  const failure =
    values['os-update-failure-chance'] === undefined
      ? 0
      : Number(values['os-update-failure-chance']);
  if (!(failure >= 0 && failure <= 1))
    throw new UsageError('--os-update-failure-chance must be between 0 and 1');
  const faultChance =
    values['update-fault-chance'] === undefined ? 0 : Number(values['update-fault-chance']);
  if (!(faultChance >= 0 && faultChance <= 1))
    throw new UsageError('--update-fault-chance must be between 0 and 1');
  const fault = values['update-fault'] ?? 'crash-loop';
  if (!isUpdateFault(fault)) {
    throw new UsageError(`--update-fault must be one of ${updateFaults.join(', ')}`);
  }
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed))
    throw new UsageError('--seed must be an integer');
  return {
    mode: 'simulate',
    count,
    fleet,
    provisioningKey,
    api,
    pollIntervalMs: optionalDuration(values['poll-interval'], '--poll-interval') ?? 10_000,
    reportIntervalMs: optionalDuration(values['report-interval'], '--report-interval'),
    metricsIntervalMs: optionalDuration(values['metrics-interval'], '--metrics-interval'),
    deviceType: values['device-type'],
    stateDir: values['state-dir'],
    updateLockChance: chance,
    diskFullChance: diskFull,
    osUpdateFailureChance: failure,
    updateFaultChance: faultChance,
    updateFault: fault,
    startSpreadMs: optionalDuration(values['start-spread'], '--start-spread'),
    seed,
    logLevel,
  };
};
