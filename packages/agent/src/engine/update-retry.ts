// How the convergence tries again after a failed update.

// What the engine says when the disk is full, on a pull or a create.
export const isDiskFull = (problem: string): boolean => /no space left on device/i.test(problem);

// The line a failed update logs; `step` is what the convergence was doing ("download image '…'").
export const updateFailureLine = (problem: string, step: string | null): string =>
  isDiskFull(problem)
    ? `Not enough disk space to ${step ?? 'update'}: ${problem}; trying again`
    : `Update failed: ${problem}; trying again`;

// Again after retryMs, doubling with each failed update up to ten minutes (a broken image is not
// pulled in a loop).
export const retryDelayMs = (retryMs: number, failures: number): number =>
  Math.min(retryMs * 2 ** Math.min(failures, 10), Math.max(retryMs, 600_000));
