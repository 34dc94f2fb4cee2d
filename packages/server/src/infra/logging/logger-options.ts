import { type DestinationStream, destination, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

// How the server's log lines look: human-readable on a terminal, JSON lines (one object per
// line, for collectors) when stdout is not a terminal or FLOTILLA_LOG_FORMAT=json.

export type LogFormatSetting = 'auto' | 'pretty' | 'json';
export type LogFormat = 'pretty' | 'json';

export const resolveLogFormat = (
  setting: LogFormatSetting,
  isTerminal = process.stdout.isTTY === true,
): LogFormat => (setting === 'auto' ? (isTerminal ? 'pretty' : 'json') : setting);

// Fastify's `logger` option: pino options plus the stream they write to.
export type LoggerSettings = { level: string; stream?: DestinationStream };

// Written at once, in order: pino's default stdout writes asynchronously, and a line written
// just before process.exit() could land after a later one (or not at all).
const jsonStream = (): DestinationStream => destination({ dest: 1, sync: true });

const prettyStream = (): DestinationStream =>
  pretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    // Written at once, as the JSON lines are.
    sync: true,
  });

export const loggerOptions = (level: string, format: LogFormat): LoggerSettings => {
  if (level === 'silent') return { level };
  return { level, stream: format === 'pretty' ? prettyStream() : jsonStream() };
};

// The process's own logger (start-up, the embedded database, shutdown), formatted like the
// HTTP server's.
export const createProcessLogger = (level: string, format: LogFormat): Logger => {
  const { stream, ...options } = loggerOptions(level, format);
  return stream ? pino(options, stream) : pino(options);
};
