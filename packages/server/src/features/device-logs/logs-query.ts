import { z } from 'zod';
import { badRequest } from '../../infra/errors/api-error.js';

// ?count=&start=&stream= of GET /device/v2/:uuid/logs, as the SDK sends them: count is a number
// or "all", start milliseconds or an ISO date; stream=1 (or true) asks for the kept-open NDJSON.
const rawQuery = z.object({
  count: z.string().optional(),
  start: z.string().optional(),
  stream: z.string().optional(),
});

export type LogsQuery = { count: number; start: number | undefined; stream: boolean };

// The SDK's defaults: history 1000 lines, a subscription none (count=0).
const defaultHistoryCount = 1000;
const maxDateMs = 8.64e15;

const parseCount = (raw: string | undefined, stream: boolean, retention: number): number => {
  if (raw === undefined || raw === '') {
    return stream ? 0 : Math.min(defaultHistoryCount, retention);
  }
  if (raw === 'all') return retention;
  if (!/^\d+$/.test(raw)) {
    throw badRequest(`count must be a number or 'all', got '${raw.slice(0, 100)}'`);
  }
  return Math.min(Number(raw), retention);
};

const parseStart = (raw: string | undefined): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  // Whole milliseconds a date can hold (JavaScript's range, well within PostgreSQL's bigint).
  if (!Number.isSafeInteger(ms) || Math.abs(ms) > maxDateMs) {
    throw badRequest(`start must be milliseconds or an ISO date, got '${raw.slice(0, 100)}'`);
  }
  return ms;
};

export const parseLogsQuery = (query: unknown, retention: number): LogsQuery => {
  const parsed = rawQuery.safeParse(query ?? {});
  if (!parsed.success) throw badRequest('Invalid logs query');
  const stream = parsed.data.stream === '1' || parsed.data.stream === 'true';
  return {
    count: parseCount(parsed.data.count, stream, retention),
    start: parseStart(parsed.data.start),
    stream,
  };
};
