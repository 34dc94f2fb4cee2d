import {
  type AlertMetric,
  alertMetricLabels,
  alertMetricUnits,
} from '@flotilla/shared/alerts/alert-rules';
import type { SqlValue } from '../../infra/db/database.js';

// The rule a sweep evaluates, as stored.
export type StoredRule = {
  id: number;
  organization: number;
  fleet: number | null;
  name: string;
  condition: string;
  metric: string | null;
  threshold: number | null;
  pattern: string | null;
  forMinutes: number;
  repeatIntervalMinutes: number;
  silencedUntil: Date | null;
};

// The devices a rule watches: the active devices of its organization (or of its one fleet).
const watched = `
  SELECT d."id", d."timeout_until", d."last_contact_at", d."update_status"
    FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
   WHERE a."organization" = $1 AND ($2::int IS NULL OR a."id" = $2) AND d."is_active"`;

// A metric of one reading, as the rule compares it (usage as a percentage).
const metricValue: Record<AlertMetric, (sample: string) => string> = {
  'cpu usage': (s) => `${s}."cpu_usage"::float8`,
  'cpu temperature': (s) => `${s}."cpu_temp"::float8`,
  'memory usage': (s) => `100.0 * ${s}."memory_usage" / nullif(${s}."memory_total", 0)`,
  'storage usage': (s) => `100.0 * ${s}."storage_usage" / nullif(${s}."storage_total", 0)`,
};

const isMetric = (value: string | null): value is AlertMetric =>
  value !== null && Object.hasOwn(metricValue, value);

export type MatchingQuery = { text: string; values: SqlValue[] };

// One statement per rule: the devices for which the rule's condition holds at `now`, with what
// the sweep saw. Parameters: $1 organization, $2 fleet, then the condition's own.
// - device offline: offline (past its timeout) for the rule's minutes; a device that never
//   made contact is not offline, it was never online.
// - update failed: its last update was aborted or rejected.
// - log line: a line containing the rule's text (any case) arrived within the rule's minutes;
//   it resolves once no such line arrived for that long.
// - metric above: every reading since the last one at or before (now - minutes) was above the
//   threshold, that one included: the metric has been above it for the whole time.
export const matchingDevices = (rule: StoredRule, now: Date): MatchingQuery | undefined => {
  const scope = [rule.organization, rule.fleet];
  if (rule.condition === 'device offline') {
    const text = `SELECT w."id" AS "device", 'Offline since ' || to_char(w."timeout_until" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' AS "detail"
              FROM (${watched}) w
             WHERE w."last_contact_at" IS NOT NULL
               AND w."timeout_until" <= $3::timestamptz - $4::int * interval '1 minute'`;
    return { text, values: [...scope, now, rule.forMinutes] };
  }
  if (rule.condition === 'update failed') {
    const text = `SELECT w."id" AS "device", 'Update ' || w."update_status" AS "detail"
              FROM (${watched}) w
             WHERE w."update_status" IN ('aborted', 'rejected')`;
    return { text, values: scope };
  }
  if (rule.condition === 'log line' && rule.pattern !== null) {
    // created_at is the server's receipt time in ms. A device keeps a bounded number of lines
    // (device-logs' retention), so this reads at most that many per watched device.
    const text = `SELECT w."id" AS "device", 'Log line: ' || left(hit."message", 200) AS "detail"
              FROM (${watched}) w
              CROSS JOIN LATERAL (
                SELECT l."message" FROM "device_log" l
                 WHERE l."device" = w."id"
                   AND l."created_at" > (extract(epoch FROM $3::timestamptz) * 1000)::bigint - $4::int * 60000
                   AND l."created_at" <= (extract(epoch FROM $3::timestamptz) * 1000)::bigint
                   AND strpos(lower(l."message"), lower($5::text)) > 0
                 ORDER BY l."id" DESC LIMIT 1) hit`;
    return { text, values: [...scope, now, rule.forMinutes, rule.pattern] };
  }
  const { metric } = rule;
  if (rule.condition === 'metric above' && isMetric(metric) && rule.threshold !== null) {
    const value = metricValue[metric];
    const text = `SELECT w."id" AS "device",
                   '${alertMetricLabels[metric]} ' || round(${value('anchor')})::text || '${alertMetricUnits[metric]}'
                     || ' for ' || $4::int || CASE WHEN $4::int = 1 THEN ' minute' ELSE ' minutes' END AS "detail"
              FROM (${watched}) w
              CROSS JOIN LATERAL (
                SELECT s.* FROM "device_metric_sample" s
                 WHERE s."device" = w."id" AND s."at" <= $3::timestamptz - $4::int * interval '1 minute'
                 ORDER BY s."at" DESC LIMIT 1) anchor
             WHERE ${value('anchor')} > $5::int
               AND NOT EXISTS (
                 SELECT 1 FROM "device_metric_sample" s
                  WHERE s."device" = w."id" AND s."at" > anchor."at" AND s."at" <= $3::timestamptz
                    AND coalesce(${value('s')} > $5::int, false) = false)`;
    return { text, values: [...scope, now, rule.forMinutes, rule.threshold] };
  }
  return undefined;
};
