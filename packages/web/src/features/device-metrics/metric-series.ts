import type { MetricPoint } from '@flotilla/shared/device-metrics/metric-history';
import { percentOf } from '../../device/device-format.js';

export type SeriesName = 'cpu' | 'memory' | 'temperature' | 'storage';

// One chart's data: times (ms) and values on the 0–100 scale of the bars (CPU %, °C, and memory
// and storage as a percentage of their totals); points the device did not report are left out.
export type Series = {
  name: SeriesName;
  label: string;
  unit: '%' | '°C';
  values: { at: number; value: number }[];
};

const clamp = (value: number): number => Math.min(100, Math.max(0, value));

const pick: Record<SeriesName, (point: MetricPoint) => number | null> = {
  cpu: (point) => (point.cpu_usage === null ? null : clamp(point.cpu_usage)),
  temperature: (point) => (point.cpu_temp === null ? null : clamp(point.cpu_temp)),
  memory: (point) => percentOf(point.memory_usage, point.memory_total),
  storage: (point) => percentOf(point.storage_usage, point.storage_total),
};

const described: { name: SeriesName; label: string; unit: Series['unit'] }[] = [
  { name: 'cpu', label: 'CPU', unit: '%' },
  { name: 'temperature', label: 'Temperature', unit: '°C' },
  { name: 'memory', label: 'Memory', unit: '%' },
  { name: 'storage', label: 'Storage', unit: '%' },
];

export const toSeries = (points: readonly MetricPoint[]): Series[] =>
  described.map(({ name, label, unit }) => ({
    name,
    label,
    unit,
    values: points.flatMap((point) => {
      const value = pick[name](point);
      return value === null ? [] : [{ at: Date.parse(point.at), value }];
    }),
  }));

// The span of a history for people: "24 hours", "90 minutes".
export const periodOf = (since: number, until: number): string => {
  const minutes = Math.round((until - since) / 60_000);
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
};

// What a screen reader hears for a chart: the range and the last reading.
export const describeSeries = (series: Series, period: string): string => {
  const values = series.values.map((entry) => entry.value);
  const last = values[values.length - 1];
  if (last === undefined) return `${series.label}: no readings in the last ${period}`;
  const round = (value: number): string => `${Math.round(value)}${series.unit}`;
  return `${series.label} over the last ${period}: ${values.length} ${values.length === 1 ? 'reading' : 'readings'}, lowest ${round(Math.min(...values))}, highest ${round(Math.max(...values))}, latest ${round(last)}`;
};

// The readings with a null between any two further apart than `maxGapMs`: the chart breaks its
// line there, so a time the device was off shows as a gap rather than a straight line across it.
export const withGaps = (
  values: Series['values'],
  maxGapMs: number,
): { at: number; value: number | null }[] =>
  values.flatMap((entry, index) => {
    const previous = values[index - 1];
    return previous && entry.at - previous.at > maxGapMs
      ? [{ at: (previous.at + entry.at) / 2, value: null }, entry]
      : [entry];
  });
