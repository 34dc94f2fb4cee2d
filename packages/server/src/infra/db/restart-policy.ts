// When the embedded PostgreSQL dies, it is started again after a delay that doubles with each
// failure in a row (so a cluster that cannot start does not spin), up to a ceiling. A run that
// lasted `stableAfterMs` counts as a success and resets the count.

export type RestartPolicy = { firstDelayMs: number; maxDelayMs: number; stableAfterMs: number };

export const defaultRestartPolicy: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

// Delay before the restart that follows `failuresInARow` earlier failed or short runs.
export const restartDelayMs = (failuresInARow: number, policy = defaultRestartPolicy): number =>
  Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(failuresInARow, 30));

// Failures in a row after a run of `ranForMs` ended.
export const failuresAfterRun = (
  failuresInARow: number,
  ranForMs: number,
  policy = defaultRestartPolicy,
): number => (ranForMs >= policy.stableAfterMs ? 0 : failuresInARow);
