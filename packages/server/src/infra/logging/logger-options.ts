import { type DestinationStream, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';

// How the server's log lines look: human-readable on a terminal, JSON lines (one object per
// line, for collectors) when stdout is not a terminal or FLOTILLA_LOG_FORMAT=json.

export type LogFormatSetting = 'auto' | 'pretty' | 'json';
export type LogFormat = 'pretty' | 'json';

export const resolveLogFormat = (
  setting: LogFormatSetting,
  isTerminal = process.stdout.isTTY === true,
): LogFormat => (setting === 'auto' ? (isTerminal ? 'pretty' : 'json') : setting);

// Fastify's `logger` option: pino options plus the stream they write to (stdout if none).
export type LoggerSettings = { level: string; stream?: DestinationStream };

const prettyStream = (): DestinationStream =>
  pretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    // Written at once, so nothing is lost when the process exits right after a line.
    sync: true,
  });

export const loggerOptions = (level: string, format: LogFormat): LoggerSettings =>
  format === 'pretty' && level !== 'silent' ? { level, stream: prettyStream() } : { level };

// The process's own logger (start-up, the embedded database, shutdown), formatted like the
// HTTP server's.
export const createProcessLogger = (level: string, format: LogFormat): Logger => {
  const { stream, ...options } = loggerOptions(level, format);
  return stream ? pino(options, stream) : pino(options);
};
