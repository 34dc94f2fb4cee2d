import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { agentNodeFlags } from '../node-flags.js';
import {
  type AgentHomeState,
  confirmed,
  type InstalledPackage,
  readHomeState,
  rolledBack,
  writeHomeState,
} from './agent-home.js';

// The package the service manager starts is the launcher: when the agent has updated itself, it
// runs that package as a child process and watches a new one until it reports in. A new package
// that exits first, or stays silent past the health timeout, is rolled back: the launcher records
// it and exits, and the service manager's restart brings the previous package back.

// What the launched agent is told (environment) and tells back (IPC message).
export const launchedVariable = 'FLOTILLA_AGENT_LAUNCHED';
export const packageVersionVariable = 'FLOTILLA_AGENT_PACKAGE_VERSION';
export const reportedInMessage = 'flotilla-agent-reported-in';
// Set for a package on trial: it says in the device's log that it took over once it reported in.
export const onTrialVariable = 'FLOTILLA_AGENT_ON_TRIAL';

// The exit code with which an agent asks its service manager for a restart (EX_TEMPFAIL): after
// it swapped in a new package, or after a rollback.
export const restartExitCode = 75;

export type AgentChild = {
  onReportedIn(listener: () => void): void;
  onExit(listener: (code: number) => void): void;
  kill(signal: NodeJS.Signals): void;
};

export type LauncherOptions = {
  home: string;
  clock: Clock;
  healthTimeoutMs: number;
  logger: Logger;
  spawnAgent(installed: InstalledPackage, onTrial: boolean): AgentChild;
  // The launcher passes SIGTERM and SIGINT on to the agent it runs.
  onSignal?(forward: (signal: NodeJS.Signals) => void): void;
};

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

// 'in-process': the installed package runs the agent itself. Otherwise the exit code of the run.
export const runLauncher = async (options: LauncherOptions): Promise<number | 'in-process'> => {
  const { home, clock, healthTimeoutMs, logger } = options;
  let state: AgentHomeState = await readHomeState(home);
  const timeoutReason = `it did not report in within ${seconds(healthTimeoutMs)}`;
  if (state.trial !== null && clock.now() >= state.trial.startedAt + healthTimeoutMs) {
    state = rolledBack(state, timeoutReason);
    await writeHomeState(home, state);
  }
  const installed = state.current;
  if (installed === null) return 'in-process';
  let pending = state.trial !== null;
  let writes = Promise.resolve();
  const record = (next: AgentHomeState): Promise<void> => {
    state = next;
    writes = writes.then(() => writeHomeState(home, next));
    return writes;
  };
  logger.info(
    `running the agent package ${installed.version} (${installed.sha256.slice(0, 12)})` +
      (pending ? `: on trial until it reports in (${seconds(healthTimeoutMs)})` : ''),
  );
  const child = options.spawnAgent(installed, pending);
  options.onSignal?.((signal) => child.kill(signal));
  return new Promise<number>((resolve) => {
    let outcome: number | null = null;
    const cancelTimer = pending
      ? clock.setTimer(
          () => {
            if (!pending) return;
            pending = false;
            outcome = restartExitCode;
            logger.error(`agent package ${installed.version}: ${timeoutReason}; rolling back`);
            void record(rolledBack(state, timeoutReason)).then(() => child.kill('SIGTERM'));
          },
          state.trial === null ? 0 : state.trial.startedAt + healthTimeoutMs - clock.now(),
        )
      : () => undefined;
    child.onReportedIn(() => {
      if (!pending) return;
      pending = false;
      cancelTimer();
      void record(confirmed(state)).then(() =>
        logger.info(`agent package ${installed.version} reported in: the update is kept`),
      );
    });
    child.onExit((code) => {
      cancelTimer();
      if (pending) {
        pending = false;
        outcome = restartExitCode;
        const reason = `it exited with code ${code} before it reported in`;
        logger.error(`agent package ${installed.version}: ${reason}; rolling back`);
        void record(rolledBack(state, reason));
      }
      void writes.then(() => resolve(outcome ?? code));
    });
  });
};

// Runs `<dir>/package/cli.js` with the agent's Node flags and the launcher's arguments.
export const spawnPackagedAgent =
  (args: readonly string[]) =>
  (installed: InstalledPackage, onTrial: boolean): AgentChild => {
    const child = spawn(
      process.execPath,
      [...agentNodeFlags, path.join(installed.dir, 'package', 'cli.js'), ...args],
      {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: {
          ...process.env,
          [launchedVariable]: '1',
          [packageVersionVariable]: installed.version,
          ...(onTrial ? { [onTrialVariable]: '1' } : {}),
        },
      },
    );
    return {
      onReportedIn: (listener) =>
        child.on('message', (message) => {
          if (message === reportedInMessage) listener();
        }),
      onExit: (listener) =>
        child.on('exit', (code, signal) => listener(code ?? (signal === null ? 1 : 128 + 15))),
      kill: (signal) => {
        child.kill(signal);
      },
    };
  };
