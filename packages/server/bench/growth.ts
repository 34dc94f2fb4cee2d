import type { ScenarioOutcome } from './rounds.js';

// "Sub-linear" for the fleet-list counts: how much slower they get for ten times the devices,
// from the two fleet-list scenarios (every organization, and a tenth of them).

export const growthNote = (outcomes: readonly ScenarioOutcome[]): string | undefined => {
  const full = outcomes.find((outcome) => outcome.id === 'fleet-list')?.summaries[0];
  const tenth = outcomes.find((outcome) => outcome.id === 'fleet-list-tenth')?.summaries[0];
  if (!full || !tenth) return undefined;
  const factor = (a: number, b: number): string =>
    Number.isFinite(a / b) ? `x${(a / b).toFixed(1)}` : '-';
  return (
    `Fleet-list counts for 10x the devices: Flotilla p99 ${factor(full.flotilla.median, tenth.flotilla.median)}, ` +
    `reference ${factor(full.reference.median, tenth.reference.median)} (goal: sub-linear, well under x10).`
  );
};
