import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadOptions, LoadStats } from './measure.js';
import type { ProtocolOptions, ProtocolResult } from './protocol-types.js';

export type ScenarioResult = { name: string; engine: LoadStats; sql: LoadStats };

export type BenchReport = {
  startedAt: string;
  environment: Record<string, string | number>;
  load: LoadOptions;
  seed: { seconds: number; counts: Record<string, number> };
  results: ScenarioResult[];
  protocolOptions: Omit<ProtocolOptions, 'load'>;
  protocol: ProtocolResult[];
};

// engine p50 / SQL p50 (how much slower one request is) and SQL req/s / engine req/s (how much
// throughput the engine costs). Both are 1.0 when the engine adds nothing.
export const ratios = (result: ScenarioResult): { latency: number; throughput: number } => ({
  latency: result.engine.p50Ms / result.sql.p50Ms,
  throughput: result.sql.requestsPerSecond / result.engine.requestsPerSecond,
});

const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';

// A GitHub-style table: the first column (and any in `leftAligned`) left-aligned, numbers right.
const markdownTable = (
  header: readonly string[],
  rows: readonly string[][],
  leftAligned: readonly number[] = [],
): string[] => {
  const left = (column: number): boolean => column === 0 || leftAligned.includes(column);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells
      .map((cell, column) =>
        left(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (left(column) ? ':' : '-').padEnd(width + 1, '-') + (left(column) ? '-' : ':')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
};

export const formatTable = (results: readonly ScenarioResult[]): string => {
  const header = [
    'scenario',
    'engine req/s',
    'engine p50 ms',
    'engine p99 ms',
    'SQL req/s',
    'SQL p50',
    'SQL p99',
    'p50 ratio',
    'req/s ratio',
  ];
  const rows = results.map((result) => {
    const { latency, throughput } = ratios(result);
    return [
      result.name,
      fixed(result.engine.requestsPerSecond, 1),
      fixed(result.engine.p50Ms, 2),
      fixed(result.engine.p99Ms, 2),
      fixed(result.sql.requestsPerSecond, 1),
      fixed(result.sql.p50Ms, 2),
      fixed(result.sql.p99Ms, 2),
      `${fixed(latency, 2)}x`,
      `${fixed(throughput, 2)}x`,
    ];
  });
  const notes = results.flatMap((result) =>
    (['engine', 'sql'] as const)
      .filter((side) => result[side].errors > 0)
      .map(
        (side) =>
          `  ! ${result.name} (${side}): ${result[side].errors} failed requests, first: ${result[side].firstError ?? ''}`,
      ),
  );
  return [...markdownTable(header, rows), ...notes].join('\n');
};

// The second table: device-protocol scenarios have no SQL twin, only their own numbers.
export const formatProtocolTable = (results: readonly ProtocolResult[]): string => {
  const header = ['device protocol', 'req/s or lines/s', 'p50 ms', 'p99 ms', 'notes'];
  const rows = results.map((result) => [
    result.name,
    Number.isFinite(result.rate) ? `${fixed(result.rate, 1)} ${result.unit}` : '-',
    fixed(result.p50Ms, 2),
    fixed(result.p99Ms, 2),
    result.notes,
  ]);
  const notes = results
    .filter((result) => result.errors > 0)
    .map(
      (result) => `  ! ${result.name}: ${result.errors} failed, first: ${result.firstError ?? ''}`,
    );
  return [...markdownTable(header, rows, [4]), ...notes].join('\n');
};

export const writeReport = async (file: string, report: BenchReport): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  const results = report.results.map((result) => ({ ...result, ratios: ratios(result) }));
  await writeFile(file, `${JSON.stringify({ ...report, results }, null, 2)}\n`);
};
