import type { Unit } from './scenario.js';
import type { RowSummary, Spread } from './stats.js';

// The printed report: one GitHub-style table, goals beside the measured values.

// First column (and any in `leftAligned`) left-aligned, the rest right-aligned.
export const markdownTable = (
  header: readonly string[],
  rows: readonly (readonly string[])[],
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
  const rule = `|${widths
    .map((width, column) =>
      left(column) ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`,
    )
    .join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
};

export const formatNumber = (value: number, unit: Unit): string => {
  if (!Number.isFinite(value)) return '-';
  switch (unit) {
    case 'ms':
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en')} ms`;
    case 'KB':
      return `${value.toFixed(1)} KB`;
    default:
      return `${value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en')} ${unit}`;
  }
};

// 0.0095x, 0.057x, 0.62x, 1.33x: two significant digits below 1, two decimals above.
export const formatRatio = (value: number): string =>
  Number.isFinite(value) ? `${value >= 1 ? value.toFixed(2) : value.toPrecision(2)}x` : '-';

const withSpread = (spread: Spread, format: (value: number) => string): string =>
  Number.isFinite(spread.median)
    ? spread.min === spread.max
      ? format(spread.median)
      : `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`
    : '-';

export const formatSummaryTable = (summaries: readonly RowSummary[], rounds: number): string => {
  const header = [
    'scenario',
    `Flotilla, median (min–max) of ${rounds} rounds`,
    'reference, median',
    'Flotilla ÷ reference, median (min–max)',
    'goal',
    'result',
  ];
  const rows = summaries.map((summary) => {
    const unit = summary.row.unit;
    return [
      summary.row.name,
      withSpread(summary.flotilla, (value) => formatNumber(value, unit)),
      formatNumber(summary.reference.median, unit),
      withSpread(summary.ratio, formatRatio),
      summary.row.goalText,
      summary.verdict,
    ];
  });
  return markdownTable(header, rows, [4, 5]).join('\n');
};
