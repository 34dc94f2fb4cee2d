import { describe, expect, it } from 'vitest';
import { isSelected, loadBenchOptions } from './bench-options.js';
import {
  bucketOf,
  bucketRange,
  createHistogram,
  fromSnapshot,
  merge,
  percentileMillis,
  recordMillis,
  snapshot,
} from './histogram.js';
import {
  cpuMillisFromStat,
  parentFromStat,
  privateBytesFromRollup,
  rssBytesFromStatus,
} from './proc-stats.js';
import { serverSetups, serversFor } from './scale.js';
import { maxDevicesPerProcess } from './scale-simulators.js';
import type { Row } from './scenario.js';
import { median, ratioOf, spreadOf, summarizeRow, verdictOf } from './stats.js';
import { formatNumber, formatRatio, formatSummaryTable } from './table.js';

const throughputRow: Row = {
  name: 'poll',
  metric: 'opsPerSecond',
  unit: 'req/s',
  goal: { kind: 'ratio', better: 'higher', target: 0.5 },
  goalText: '≥ 0.5x',
};

describe('histogram', () => {
  it('keeps every bucket within 1.6% of the values it holds', () => {
    for (const micros of [0, 1, 127, 128, 129, 1000, 65_535, 1_000_000, 3.6e9]) {
      const [low, high] = bucketRange(bucketOf(micros));
      expect(low).toBeLessThanOrEqual(Math.floor(micros));
      expect(high).toBeGreaterThanOrEqual(Math.floor(micros));
      expect((high - low) / Math.max(1, low)).toBeLessThan(0.016);
    }
  });

  it('answers nearest-rank percentiles in milliseconds', () => {
    const histogram = createHistogram();
    for (let ms = 1; ms <= 100; ms++) recordMillis(histogram, ms);
    expect(percentileMillis(histogram, 50)).toBeCloseTo(50, 0);
    expect(percentileMillis(histogram, 99)).toBeCloseTo(99, 0);
    expect(percentileMillis(histogram, 100)).toBeCloseTo(100, 0);
    expect(percentileMillis(createHistogram(), 50)).toBeNaN();
  });

  it('never reports a percentile above the largest value seen', () => {
    const histogram = createHistogram();
    recordMillis(histogram, 0.2001);
    expect(percentileMillis(histogram, 99)).toBeLessThanOrEqual(0.2001);
  });

  it('survives a snapshot round trip and merges by adding counts', () => {
    const a = createHistogram();
    const b = createHistogram();
    for (let i = 0; i < 90; i++) recordMillis(a, 1);
    for (let i = 0; i < 10; i++) recordMillis(b, 50);
    const merged = fromSnapshot(snapshot(a));
    merge(merged, b);
    expect(merged.total).toBe(100);
    expect(percentileMillis(merged, 90)).toBeCloseTo(1, 1);
    expect(percentileMillis(merged, 91)).toBeCloseTo(50, 0);
  });
});

describe('stats', () => {
  it('takes the median of odd and even counts, ignoring NaN', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
    expect(spreadOf([2, 9, 4])).toEqual({ median: 4, min: 2, max: 9 });
  });

  it('summarises the median of per-round ratios, not the ratio of medians', () => {
    const summary = summarizeRow(throughputRow, [
      { flotilla: 100, reference: 1000 },
      { flotilla: 300, reference: 1000 },
      { flotilla: 100, reference: 100 },
    ]);
    expect(summary.ratio).toEqual({ median: 0.3, min: 0.1, max: 1 });
    // The ratio of the medians would be 100 / 1000.
    expect(summary.flotilla.median / summary.reference.median).toBe(0.1);
    expect(summary.verdict).toBe('missed');
  });

  it('judges absolute goals on Flotilla alone', () => {
    const row: Row = {
      name: 'tail',
      metric: 'tailP99Ms',
      unit: 'ms',
      goal: { kind: 'absolute', better: 'lower', target: 50 },
      goalText: 'p99 ≤ 50 ms',
    };
    const summary = summarizeRow(row, [
      { flotilla: 40, reference: 1 },
      { flotilla: 45, reference: 2 },
    ]);
    expect(summary.judged.median).toBe(42.5);
    expect(summary.verdict).toBe('met');
  });

  it('has no ratio without a reference, and no verdict without a goal or data', () => {
    expect(ratioOf({ flotilla: 5, reference: Number.NaN })).toBeNaN();
    expect(ratioOf({ flotilla: 5, reference: 0 })).toBeNaN();
    expect(verdictOf({ kind: 'none' }, 1)).toBe('no goal');
    expect(verdictOf(throughputRow.goal, Number.NaN)).toBe('no data');
    expect(verdictOf(throughputRow.goal, 0.5)).toBe('met');
  });
});

describe('table', () => {
  it('formats ratios with two significant digits below 1', () => {
    expect(formatRatio(0.0095)).toBe('0.0095x');
    expect(formatRatio(0.0571)).toBe('0.057x');
    expect(formatRatio(1.333)).toBe('1.33x');
    expect(formatRatio(Number.NaN)).toBe('-');
    expect(formatNumber(42_000.4, 'req/s')).toBe('42,000 req/s');
    expect(formatNumber(9.5, 'ms')).toBe('9.50 ms');
    expect(formatNumber(13.44, 'KB')).toBe('13.4 KB');
  });

  it('prints one row per summary with its goal and verdict', () => {
    const summary = summarizeRow(throughputRow, [
      { flotilla: 400, reference: 42_000 },
      { flotilla: 410, reference: 41_000 },
    ]);
    const lines = formatSummaryTable([summary], 2).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('median (min–max) of 2 rounds');
    expect(lines[2]).toContain('405 req/s (400 req/s–410 req/s)');
    expect(lines[2]).toContain('41,500 req/s');
    expect(lines[2]).toContain('≥ 0.5x');
    expect(lines[2]).toContain('missed');
    // Every line has the same width.
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});

describe('proc readings', () => {
  it('reads CPU time and the parent from /proc/<pid>/stat, a name with spaces included', () => {
    const stat = '4242 (node (main) x) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11';
    expect(cpuMillisFromStat(stat)).toBe(3000);
    // With the time of exited children (cutime 20 ticks).
    expect(cpuMillisFromStat(stat.replace(' 250 50 0 0 ', ' 250 50 20 0 '), true)).toBe(3200);
    expect(parentFromStat(stat)).toBe(17);
  });

  it('reads VmRSS from /proc/<pid>/status', () => {
    expect(rssBytesFromStatus('Name:\tnode\nVmRSS:\t  123456 kB\nVmSwap:\t0 kB\n')).toBe(
      123_456 * 1024,
    );
    expect(() => rssBytesFromStatus('Name:\tnode\n')).toThrow(/VmRSS/);
  });

  it('adds the private pages of /proc/<pid>/smaps_rollup, leaving out the shared ones', () => {
    const rollup = [
      '55d0c0000000-7ffd00000000 ---p 00000000 00:00 0 [rollup]',
      'Rss:               73352 kB',
      'Shared_Clean:      44884 kB',
      'Private_Clean:       100 kB',
      'Private_Dirty:     28468 kB',
      '',
    ].join('\n');
    expect(privateBytesFromRollup(rollup)).toBe((100 + 28_468) * 1024);
  });
});

describe('options', () => {
  it('defaults to full mode and has a quick one', () => {
    expect(loadBenchOptions([], {}).mode).toBe('full');
    expect(loadBenchOptions([], {}).devices).toBe(100_000);
    const quick = loadBenchOptions(['--quick'], {});
    expect(quick).toMatchObject({ mode: 'quick', rounds: 3, devices: 10_000, scale: false });
    expect(loadBenchOptions([], { BENCH_MODE: 'quick', BENCH_ROUNDS: '4' }).rounds).toBe(4);
    expect(() => loadBenchOptions([], { BENCH_MODE: 'fast' })).toThrow(/quick or full/);
    expect(() => loadBenchOptions([], { BENCH_DEVICES: '1234' })).toThrow(/multiple of 200/);
  });

  it('scales to 50,000 devices in full mode, over as many processes as the open-file limit needs', () => {
    expect(loadBenchOptions([], {})).toMatchObject({
      scaleDevices: 50_000,
      scaleSpreadMs: 1_500_000,
    });
    expect(loadBenchOptions(['--quick'], {})).toMatchObject({ scaleDevices: 1000 });
    const counts = (devices: number) =>
      serverSetups(devices).map((setup) => `${setup.count} ${setup.bus}`);
    expect(counts(1000)).toEqual(['1 postgres', '2 postgres', '3 nats']);
    expect(counts(10_000)).toEqual(['1 postgres', '2 postgres', '3 nats']);
    expect(serversFor(50_000)).toBe(4);
    expect(counts(50_000)).toEqual(['4 postgres', '4 nats']);
    // Fleets are dealt whole: 10 fleets of 5,000 over 4 servers give at most 3 fleets each.
    expect(Math.ceil(10 / serversFor(50_000)) * 5000).toBeLessThanOrEqual(maxDevicesPerProcess);
  });

  it('runs one bus of the scale scenario alone when BENCH_SCALE_BUS names it', () => {
    expect(loadBenchOptions([], {}).scaleBuses).toEqual(['postgres', 'nats']);
    expect(loadBenchOptions([], { BENCH_SCALE_BUS: 'nats' }).scaleBuses).toEqual(['nats']);
    expect(() => loadBenchOptions([], { BENCH_SCALE_BUS: 'redis' })).toThrow(/BENCH_SCALE_BUS/);
  });

  it('selects by BENCH_ONLY substrings, and runs extras in full mode only', () => {
    const quick = loadBenchOptions(['--quick'], {});
    expect(isSelected(quick, { id: 'poll' })).toBe(true);
    expect(isSelected(quick, { id: 'by-uuid', extra: true })).toBe(false);
    expect(isSelected({ ...quick, mode: 'full' }, { id: 'by-uuid', extra: true })).toBe(true);
    const only = loadBenchOptions([], { BENCH_ONLY: 'tail, scale' });
    expect(only.scale).toBe(true);
    expect(isSelected(only, { id: 'live-tail' })).toBe(true);
    expect(isSelected(only, { id: 'poll' })).toBe(false);
  });
});
