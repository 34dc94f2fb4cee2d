import {
  defaultMetricPoints,
  maxMetricPoints,
} from '@flotilla/shared/device-metrics/metric-history';
import { z } from 'zod';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';

// ?since=&until=&points= of GET /device/v2/:uuid/metrics. Dates are ISO or milliseconds; until
// defaults to now, since to until minus the retention; the range may not exceed the retention
// (nothing older is kept) and points is 1..maxMetricPoints, so every answer has a bounded cost.
const rawQuery = z.object({
  since: z.string().max(40).optional(),
  until: z.string().max(40).optional(),
  points: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a whole number')
    .optional(),
});

export type MetricsQuery = { since: Date; until: Date; points: number };

const maxDateMs = 8.64e15;

const parseDate = (name: string, raw: string | undefined): Date | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isSafeInteger(ms) || Math.abs(ms) > maxDateMs) {
    throw badRequest(`${name} must be milliseconds or an ISO date, got '${raw}'`);
  }
  return new Date(ms);
};

export const parseMetricsQuery = (query: unknown, now: Date, retentionMs: number): MetricsQuery => {
  const raw = parseBody(rawQuery, query);
  const until = parseDate('until', raw.until) ?? now;
  const since = parseDate('since', raw.since) ?? new Date(until.getTime() - retentionMs);
  if (since.getTime() >= until.getTime()) throw badRequest('since must be before until');
  if (until.getTime() - since.getTime() > retentionMs) {
    throw badRequest(
      `The range may span at most ${retentionMs / 3_600_000} hours (the metrics retention)`,
    );
  }
  const points = raw.points === undefined ? defaultMetricPoints : Number(raw.points);
  if (points < 1 || points > maxMetricPoints) {
    throw badRequest(`points must be between 1 and ${maxMetricPoints}`);
  }
  return { since, until, points };
};
