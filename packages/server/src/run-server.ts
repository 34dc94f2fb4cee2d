import type { Logger } from 'pino';
import { type Config, loadConfig } from './infra/config/config.js';
import { createProcessLogger, resolveLogFormat } from './infra/logging/logger-options.js';
import { formatStartBanner, type StartBannerInfo } from './start-banner.js';
import { type RunningServer, startServer } from './start-server.js';

// The server as a process (`flotilla-server`, `npm start`): logs in the configured format, the
// start banner last, and an orderly stop on SIGINT / SIGTERM. A second Ctrl-C forces the exit.

export type ServerProcess = {
  server: RunningServer;
  logger: Logger;
  // Prints the banner again, with more to say (npm start: the simulated devices).
  printBanner(extra?: Partial<StartBannerInfo>): void;
  // Work done first when stopping, latest first (npm start stops its simulated devices).
  beforeStop(work: () => Promise<void>): void;
};

// npm forwards the terminal's SIGINT to the server, which got its own from the terminal too:
// signals this close to the first one are the same Ctrl-C.
export const sameSignalWithinMs = 1_000;

const messageOf = (error: unknown): string => {
  const parts: string[] = [];
  for (let current = error; current !== undefined && parts.length < 5;) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
};

const failStart = (logger: Logger | undefined, error: unknown): never => {
  const text = `Flotilla could not start: ${messageOf(error)}`;
  if (logger) logger.fatal(text);
  else process.stderr.write(`${text}\n`);
  process.exit(1);
};

export const runServerProcess = async (env = process.env): Promise<ServerProcess> => {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    return failStart(undefined, error);
  }
  const format = resolveLogFormat(config.logFormat);
  const logger = createProcessLogger(config.logLevel, format);

  let server: RunningServer | undefined;
  let stopping: number | undefined;
  const beforeStop: (() => Promise<void>)[] = [];

  const stop = async (): Promise<void> => {
    for (const work of [...beforeStop].reverse()) {
      await work().catch((error: unknown) => logger.warn(`While stopping: ${messageOf(error)}`));
    }
    await server?.stop();
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (stopping !== undefined) {
      if (now - stopping < sameSignalWithinMs) return;
      logger.warn(`${signal} again: exiting without waiting`);
      server?.abandon();
      process.exit(130);
    }
    stopping = now;
    // Before the server runs there is nothing to stop in order; the embedded PostgreSQL (if
    // started) is asked to stop as the process exits.
    if (!server) process.exit(130);
    logger.info(`${signal}: stopping (press Ctrl-C again to force) ...`);
    stop().then(
      () => {
        logger.info('Stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`Stopping failed: ${messageOf(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    server = await startServer(config, (line) => logger.info(line), logger);
  } catch (error) {
    return failStart(logger, error);
  }

  const running = server;
  const printBanner = (extra: Partial<StartBannerInfo> = {}): void => {
    const info = { ...running.banner, ...extra };
    // A terminal gets a block to read; a log collector gets one record with the same facts.
    if (format === 'pretty') process.stdout.write(`\n${formatStartBanner(info).join('\n')}\n\n`);
    else logger.info({ banner: info }, `Flotilla is ready at ${info.url}`);
  };
  printBanner();
  return {
    server: running,
    logger,
    printBanner,
    beforeStop: (work) => beforeStop.push(work),
  };
};
