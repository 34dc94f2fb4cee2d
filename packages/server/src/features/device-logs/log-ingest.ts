import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseLogLine, type StoredLine } from './log-line.js';
import { ndjsonLines } from './ndjson-lines.js';

// POST /device/v2/:uuid/log-stream: a long-lived NDJSON upload (optionally gzip) parsed as it
// arrives, each chunk's lines handed on at once (to live streams, and queued for storage: never
// waiting for it, see log-writer.ts). Bad lines are skipped, never fatal; lines beyond the rate
// limit are dropped with one system line saying so; memory stays bounded (line size cap, the
// storage queue's bound). The answer comes once the lines are stored, or held while the
// database is unavailable.

export type IngestLimits = {
  maxLineBytes: number;
  // Token bucket per stream: sustained lines per second, and the burst allowed on top.
  linesPerSecond: number;
  burstLines: number;
};

export const defaultIngestLimits: IngestLimits = {
  maxLineBytes: 64 * 1024,
  linesPerSecond: 500,
  burstLines: 5000,
};

export type IngestStats = { accepted: number; invalid: number; oversized: number; dropped: number };

export type IngestDeps = {
  // Hands the stream's lines on (log-intake.ts).
  accept(lines: readonly StoredLine[]): void;
  // Resolves once the stream's lines are stored (or held while the database is unavailable).
  settled(): Promise<void>;
  limits: IngestLimits;
  now: () => Date;
  // Called when lines arrive (the heartbeat; it throttles itself).
  onActivity: () => void;
};

const rateLimitNotice = (now: number): StoredLine => ({
  message: 'Some logs were dropped: the device sends more than the server accepts per second',
  timestamp: now,
  isSystem: true,
  isStdErr: false,
  serviceId: null,
});

const decoded = (source: Readable, encoding: string | undefined): Readable => {
  const value = (encoding ?? 'identity').trim().toLowerCase();
  if (value === 'identity' || value === '') return source;
  if (value === 'gzip' || value === 'x-gzip') {
    // pipeline() forwards errors (a truncated or corrupt stream) to the gunzip side we read.
    return pipeline(source, createGunzip(), () => undefined);
  }
  throw badRequest(`Unsupported Content-Encoding: ${value}`);
};

export const ingestLogStream = async (
  source: Readable,
  contentEncoding: string | undefined,
  deps: IngestDeps,
): Promise<IngestStats> => {
  const stats: IngestStats = { accepted: 0, invalid: 0, oversized: 0, dropped: 0 };
  const counters = { oversized: 0 };
  const { limits } = deps;
  let tokens = limits.burstLines;
  let refilledAt = deps.now().getTime();
  let warned = false;

  for await (const texts of ndjsonLines(
    decoded(source, contentEncoding),
    limits.maxLineBytes,
    counters,
  )) {
    const now = deps.now().getTime();
    tokens = Math.min(
      limits.burstLines,
      tokens + ((now - refilledAt) / 1000) * limits.linesPerSecond,
    );
    refilledAt = now;
    const lines: StoredLine[] = [];
    for (const text of texts) {
      const line = parseLogLine(text, now);
      if (!line) {
        stats.invalid += 1;
        continue;
      }
      if (tokens < 1) {
        stats.dropped += 1;
        continue;
      }
      tokens -= 1;
      lines.push(line);
    }
    // One notice per stretch of dropping; it resets once lines get through again.
    if (stats.dropped > 0 && !warned && tokens < 1) {
      lines.push(rateLimitNotice(now));
      warned = true;
    } else if (tokens >= 1) warned = false;
    if (lines.length === 0) continue;
    deps.onActivity();
    stats.accepted += lines.length;
    deps.accept(lines);
  }
  await deps.settled();
  stats.oversized = counters.oversized;
  return stats;
};
