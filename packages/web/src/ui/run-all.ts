import { runWithConcurrency } from './run-with-concurrency.js';

// Runs one write per item (a few at a time) and fails with the first error, after all ran.
export const runAll = async <T>(
  items: readonly T[],
  write: (item: T) => Promise<unknown>,
  concurrency = 5,
): Promise<void> => {
  const outcomes = await runWithConcurrency(items, concurrency, write);
  for (const outcome of outcomes) if (!outcome.ok) throw outcome.error;
};
