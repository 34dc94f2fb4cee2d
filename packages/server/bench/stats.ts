import type { Goal, Row, Side } from './scenario.js';

// The arithmetic of the report: per-round ratios, their median and spread, goal verdicts.

export type Spread = { median: number; min: number; max: number };

export const median = (values: readonly number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
};

export const spreadOf = (values: readonly number[]): Spread => {
  const finite = values.filter(Number.isFinite);
  return {
    median: median(finite),
    min: finite.length > 0 ? Math.min(...finite) : Number.NaN,
    max: finite.length > 0 ? Math.max(...finite) : Number.NaN,
  };
};

// One round: the row's metric on each side (the reference is NaN for a row without one).
export type RoundValues = Record<Side, number>;

export type Verdict = 'met' | 'missed' | 'no goal' | 'no data';

export type RowSummary = {
  row: Row;
  flotilla: Spread;
  reference: Spread;
  // Flotilla ÷ reference per round, then summarised: the median of per-round ratios, not the
  // ratio of medians, so drift during the run (a busy neighbour) cancels within each round.
  ratio: Spread;
  // What the goal judges: the ratio, or Flotilla's own value for an absolute goal.
  judged: Spread;
  verdict: Verdict;
};

export const ratioOf = (values: RoundValues): number =>
  values.reference > 0 && Number.isFinite(values.reference)
    ? values.flotilla / values.reference
    : Number.NaN;

export const verdictOf = (goal: Goal, value: number): Verdict => {
  if (goal.kind === 'none') return 'no goal';
  if (!Number.isFinite(value)) return 'no data';
  const met = goal.better === 'higher' ? value >= goal.target : value <= goal.target;
  return met ? 'met' : 'missed';
};

export const summarizeRow = (row: Row, rounds: readonly RoundValues[]): RowSummary => {
  const flotilla = spreadOf(rounds.map((round) => round.flotilla));
  const reference = spreadOf(rounds.map((round) => round.reference));
  const ratio = spreadOf(rounds.map(ratioOf));
  const judged = row.goal.kind === 'ratio' ? ratio : flotilla;
  return { row, flotilla, reference, ratio, judged, verdict: verdictOf(row.goal, judged.median) };
};
