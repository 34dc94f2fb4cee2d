#!/usr/bin/env node
import { parseCli, usage, UsageError, type SimulateCommand } from './cli-args.js';
import { ConfigError } from './config.js';
import { consoleLogger, errorText, type Logger } from './logger.js';
import { ProvisioningError } from './provisioning.js';
import { startRealAgent } from './real-agent.js';
import { startSimulator } from './simulator.js';
import { agentVersion } from './version.js';
import { launchInstalledPackage } from './self-update/launch-installed.js';
import {
  launchedVariable,
  onTrialVariable,
  packageVersionVariable,
  reportedInMessage,
  restartExitCode,
} from './self-update/launcher.js';

type Running = { stop(): Promise<void> };

const simulate = async (command: SimulateCommand, logger: Logger): Promise<Running> => {
  const simulator = await startSimulator({
    api: command.api,
    fleets: [
      {
        slug: command.fleet,
        provisioningKey: command.provisioningKey,
        count: command.count,
        ...(command.deviceType
          ? { deviceType: command.deviceType, deviceTypes: [command.deviceType] }
          : {}),
      },
    ],
    pollIntervalMs: command.pollIntervalMs,
    reportIntervalMs: command.reportIntervalMs,
    metricsIntervalMs: command.metricsIntervalMs,
    stateDir: command.stateDir,
    updateLockChance: command.updateLockChance,
    diskFullChance: command.diskFullChance,
    osUpdateFailureChance: command.osUpdateFailureChance,
    updateFaultChance: command.updateFaultChance,
    updateFault: command.updateFault,
    startSpreadMs: command.startSpreadMs,
    seed: command.seed,
    logger,
  });
  if (!command.stateDir) logger.info('no --state-dir: devices are registered anew on every run');
  // A one-line census every minute instead of a line per device event.
  const census = setInterval(() => {
    const counts = new Map<string, number>();
    for (const device of simulator.devices)
      counts.set(device.phase, (counts.get(device.phase) ?? 0) + 1);
    logger.info(`devices: ${[...counts].map(([phase, count]) => `${count} ${phase}`).join(', ')}`);
  }, 60_000);
  census.unref();
  return {
    stop: async () => {
      clearInterval(census);
      await simulator.stop();
    },
  };
};

const main = async (): Promise<number> => {
  let command;
  try {
    command = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`flotilla-agent: ${errorText(error)}\n\n${usage}\n`);
    return 2;
  }
  if (command.mode === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (command.mode === 'version') {
    process.stdout.write(`${agentVersion}\n`);
    return 0;
  }
  const logger = consoleLogger(command.logLevel);
  if (command.mode === 'real' && process.env[launchedVariable] !== '1') {
    const launched = await launchInstalledPackage(
      command.configPath,
      process.argv.slice(2),
      logger,
    );
    if (launched !== 'in-process') return launched;
  }
  const abort = new AbortController();
  let running: Running | null = null;
  let stopping = false;
  let reportedIn = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    logger.info(`${signal}: stopping`);
    abort.abort(new Error(signal));
    void (running?.stop() ?? Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`stop failed: ${errorText(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  try {
    if (command.mode === 'real') {
      const agent = await startRealAgent({
        configPath: command.configPath,
        logger,
        signal: abort.signal,
        supervisorVersion: process.env[packageVersionVariable],
        onTrial: process.env[onTrialVariable] === '1',
        restart: () => {
          if (stopping) return;
          stopping = true;
          logger.info('exiting for the service manager to start the new agent package');
          void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(restartExitCode));
        },
        onReportedIn: () => {
          if (reportedIn) return;
          reportedIn = true;
          process.send?.(reportedInMessage);
        },
      });
      logger.info(`flotilla-agent ${agentVersion} running as device ${agent.uuid}`);
      running = agent;
    } else {
      running = await simulate(command, logger);
      logger.info(`simulating ${command.count} devices of ${command.fleet} against ${command.api}`);
    }
    if (stopping) await running.stop();
  } catch (error) {
    if (stopping) return 0;
    const known =
      error instanceof ConfigError ||
      error instanceof ProvisioningError ||
      error instanceof UsageError;
    logger.error(known ? error.message : `failed to start: ${errorText(error)}`);
    return 1;
  }
  return -1;
};

void main().then((code) => {
  // -1: keep running until a signal stops us.
  if (code >= 0) process.exit(code);
});
