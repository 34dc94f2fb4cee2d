export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type Logger = {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  child(prefix: string): Logger;
};

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

// Agent diagnostics go to stderr so stdout stays free for anything a caller may pipe.
export const consoleLogger = (level: LogLevel = 'info', prefix = ''): Logger => {
  const write =
    (at: LogLevel) =>
    (message: string): void => {
      if (rank[at] < rank[level]) return;
      const line = `${new Date().toISOString()} ${at.padEnd(5)} ${prefix}${message}\n`;
      process.stderr.write(line);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => consoleLogger(level, `${prefix}${more} `),
  };
};

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

// The first failure of an outage is a warning, its repeats are debug lines, and the recovery
// is noted once: a device offline for a day (or thousands of simulated ones) cannot flood.
export class FailureLog {
  readonly #logger: Logger;
  #failing = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  fail(message: string): void {
    if (this.#failing) this.#logger.debug(message);
    else this.#logger.warn(message);
    this.#failing = true;
  }

  recover(message: string): void {
    if (this.#failing) this.#logger.info(message);
    this.#failing = false;
  }
}
