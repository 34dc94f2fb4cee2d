import { configWriteConcurrency } from '@flotilla/shared/constants/limits';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { inApplyOrder, type StagedChange, type StagedChanges } from './staged-edits.js';

export type ApplyResult<T> = {
  // The changes whose write failed, still staged afterwards, with the first error.
  failed: StagedChange<T>[];
  firstError: unknown;
};

// Writes staged changes 10 at a time (so a large apply does not flood the server), deletions, then updates, then
// additions, each group finished before the next starts. Never rejects: every failure is
// collected so the caller can report it and keep it staged.
export const applyStaged = async <T>(
  changes: StagedChanges<T>,
  write: (staged: StagedChange<T>) => Promise<unknown>,
  concurrency: number = configWriteConcurrency,
): Promise<ApplyResult<T>> => {
  const failed: StagedChange<T>[] = [];
  let firstError: unknown;
  const ordered = inApplyOrder(changes);
  for (const kind of ['deleted', 'updated', 'added'] as const) {
    const group = ordered.filter((staged) => staged.kind === kind);
    const outcomes = await runWithConcurrency(group, concurrency, write);
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      if (failed.length === 0) firstError = outcome.error;
      failed.push(outcome.item);
    }
  }
  return { failed, firstError };
};
