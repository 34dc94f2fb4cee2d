import type { BuilderDeps } from './build-outcome.js';
import { stopOfStatus } from './build-cancellation.js';
import type { BuildTurn } from './build-queue.js';

// A server build while this server has it, queued or building: its release shows its log so
// far, and stays known as alive.

// The build log as it is so far, on the release while it runs: a queued build's place shows
// (and so does a build that answered at once, headless). Each write keeps the release's last
// update recent, so that a queued build does not read as timed out.
export const showLog = async (deps: BuilderDeps, releaseId: number, log: readonly string[]) => {
  await deps.db.query(
    `UPDATE "release" SET "build_log" = $2 WHERE "id" = $1 AND "status" = 'running'`,
    [releaseId, log.join('\n')],
  );
};

// The stuck-build sweep ends a server build 15 minutes after its server_build time, taking it
// for one whose server stopped: while this server has it (queued or building), it keeps that time
// recent. A release that stopped running meanwhile (cancelled through another process whose
// notification this one missed) stops its build.
export const keepAlive = async (
  deps: BuilderDeps,
  releaseId: number,
  log: readonly string[],
  turn: BuildTurn,
): Promise<void> => {
  await deps.db.query('UPDATE "server_build" SET "started_at" = $2 WHERE "release" = $1', [
    releaseId,
    deps.now(),
  ]);
  await checkRunning(deps, releaseId, turn);
  await showLog(deps, releaseId, log);
};

export const checkRunning = async (deps: BuilderDeps, releaseId: number, turn: BuildTurn) => {
  const { rows } = await deps.db.query<{ status: string }>(
    'SELECT "status" FROM "release" WHERE "id" = $1',
    [releaseId],
  );
  const status = rows[0]?.status ?? 'cancelled';
  if (status !== 'running') turn.stop(stopOfStatus(status));
};

export const queuedLine = (position: number, parallel: number): string =>
  `Queued: ${position === 1 ? 'next' : `number ${position}`} in line (this server runs ${parallel === 1 ? 'one build' : `${parallel} builds`} at a time)`;
