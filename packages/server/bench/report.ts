import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchOptions } from './bench-options.js';
import type { ScenarioOutcome } from './rounds.js';

// bench-results/latest.json: everything the printed tables came from, per round and side.

export type BenchReport = {
  startedAt: string;
  finishedAt: string;
  options: BenchOptions;
  environment: Record<string, string | number | number[]>;
  seed: { seconds: number; counts: Record<string, number> };
  scenarios: ScenarioOutcome[];
  scale: unknown;
  agentFootprint?: unknown;
};

// JSON has no NaN: numbers that mean nothing become null.
const finite = (_key: string, value: unknown): unknown =>
  typeof value === 'number' && !Number.isFinite(value) ? null : value;

export const writeReport = async (file: string, report: BenchReport): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, finite, 2)}\n`);
};
