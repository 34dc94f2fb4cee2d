import type { Config } from '../../infra/config/config.js';
import { type Schedule, timerSchedule } from '../../infra/scheduling/periodic-task.js';

// Why a build ends before it finishes by itself, and how its release ends.
export type BuildStop = {
  // The release's status: cancelled (by a user, or the client of `balena push` gone), failed
  // (over the time limit, or the release marked failed meanwhile).
  status: 'cancelled' | 'failed';
  // The build log's line saying why.
  line: string;
};

export const isBuildStop = (value: unknown): value is BuildStop =>
  typeof value === 'object' &&
  value !== null &&
  'status' in value &&
  (value.status === 'cancelled' || value.status === 'failed') &&
  'line' in value &&
  typeof value.line === 'string';

// One build's place on this server: waiting for its turn, then running until it leaves.
export type BuildTurn = {
  // Aborted (its reason the BuildStop) when the build is stopped, waiting or running: the
  // engine's requests are made with it, so stopping one stops the work on the engine.
  signal: AbortSignal;
  // Resolves true once the build may run, false when it was stopped while waiting.
  ready: Promise<boolean>;
  stop(stop: BuildStop): void;
  // Why it was stopped, once it was.
  stopped(): BuildStop | undefined;
  // The build is over: its place goes to the next one waiting.
  leave(): void;
};

export type BuildQueue = {
  // Queues the release's build; `onWaiting` hears its place each time it changes while it waits
  // (1: next). `outer` stops it too (a client gone), its reason the BuildStop.
  join(releaseId: number, onWaiting: (position: number) => void, outer?: AbortSignal): BuildTurn;
  // Stops the release's build if this server has it, waiting or running.
  stop(releaseId: number, stop: BuildStop): boolean;
  counts(): { running: number; waiting: number };
};

export type BuildQueueOptions = {
  parallel: number;
  // Counted from the build's turn, not from its joining the queue.
  timeoutMs: number;
  schedule?: Schedule;
};

export const describeDuration = (ms: number): string => {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60 || seconds % 60 !== 0) return `${seconds} s`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

export const timedOutLine = (timeoutMs: number): string =>
  `Build failed: timed out after ${describeDuration(timeoutMs)} (this server's limit, FLOTILLA_BUILDER_TIMEOUT_MINUTES); the build was stopped`;

const clientGone: BuildStop = { status: 'cancelled', line: 'Build cancelled' };

type Entry = {
  releaseId: number;
  controller: AbortController;
  onWaiting: (position: number) => void;
  start: () => void;
  state: 'waiting' | 'running' | 'gone';
  // The place it was last told.
  told?: number;
  cancelTimeout?: () => void;
};

// Builds run in the order they came, at most `parallel` at once; the others wait, hearing their
// place. A build's time limit starts with its turn.
export const createBuildQueue = ({
  parallel,
  timeoutMs,
  schedule = timerSchedule,
}: BuildQueueOptions): BuildQueue => {
  const waiting: Entry[] = [];
  const running = new Set<Entry>();
  const byRelease = new Map<number, Entry>();

  const tellPlaces = (): void => {
    waiting.forEach((entry, index) => {
      if (entry.told === index + 1) return;
      entry.told = index + 1;
      entry.onWaiting(index + 1);
    });
  };

  const advance = (): void => {
    let moved = false;
    while (running.size < parallel) {
      const next = waiting.shift();
      if (next === undefined) break;
      moved = true;
      next.state = 'running';
      running.add(next);
      next.cancelTimeout = schedule(() => {
        stopEntry(next, { status: 'failed', line: timedOutLine(timeoutMs) });
      }, timeoutMs);
      next.start();
    }
    if (moved) tellPlaces();
  };

  const remove = (entry: Entry): void => {
    if (entry.state === 'gone') return;
    const wasWaiting = entry.state === 'waiting';
    entry.state = 'gone';
    entry.cancelTimeout?.();
    running.delete(entry);
    if (byRelease.get(entry.releaseId) === entry) byRelease.delete(entry.releaseId);
    const index = waiting.indexOf(entry);
    if (index >= 0) waiting.splice(index, 1);
    if (wasWaiting) tellPlaces();
    advance();
  };

  function stopEntry(entry: Entry, stop: BuildStop): void {
    if (entry.state === 'gone' || entry.controller.signal.aborted) return;
    entry.controller.abort(stop);
    // A waiting build leaves at once; a running one when its work on the engine has stopped.
    if (entry.state === 'waiting') {
      remove(entry);
      entry.start();
    }
  }

  return {
    join(releaseId, onWaiting, outer) {
      const controller = new AbortController();
      let start = (): void => undefined;
      const ready = new Promise<boolean>((resolve) => {
        start = () => resolve(!controller.signal.aborted);
      });
      const entry: Entry = { releaseId, controller, onWaiting, start, state: 'waiting' };
      const stopByOuter = (): void => {
        stopEntry(entry, isBuildStop(outer?.reason) ? outer.reason : clientGone);
      };
      byRelease.set(releaseId, entry);
      waiting.push(entry);
      // Stopped before it came (its client gone already): it never runs.
      if (outer?.aborted) stopByOuter();
      else {
        outer?.addEventListener('abort', stopByOuter, { once: true });
        advance();
        tellPlaces();
      }
      return {
        signal: controller.signal,
        ready,
        stop: (stop) => stopEntry(entry, stop),
        stopped: () => {
          const reason: unknown = controller.signal.reason;
          return controller.signal.aborted && isBuildStop(reason) ? reason : undefined;
        },
        leave: () => {
          outer?.removeEventListener('abort', stopByOuter);
          remove(entry);
        },
      };
    },
    stop(releaseId, stop) {
      const entry = byRelease.get(releaseId);
      if (entry === undefined) return false;
      stopEntry(entry, stop);
      return true;
    },
    counts: () => ({ running: running.size, waiting: waiting.length }),
  };
};

const queues = new WeakMap<Config, BuildQueue>();

// One per configuration (so per server), shared by every way a build comes in.
export const buildQueueOf = (config: Config): BuildQueue => {
  let queue = queues.get(config);
  if (queue === undefined) {
    queue = createBuildQueue({
      parallel: config.builderParallel,
      timeoutMs: config.builderTimeoutMs,
    });
    queues.set(config, queue);
  }
  return queue;
};
