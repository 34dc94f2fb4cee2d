import { watch } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Scheduler } from '../scheduler.js';

// balena's hand-over update strategy: the new container runs beside the old one until it says it
// has taken over, by creating /tmp/balena/handover-complete (or the legacy
// /tmp/resin/resin-kill-me), or until the hand-over timeout. Both containers see the same
// /tmp/balena: the service's lock directory on the host (update-locks.ts), watched here.

export const handoverFiles = ['handover-complete', 'resin-kill-me'];

export type HandoverOutcome = 'signalled' | 'timed out' | 'cancelled';

export type HandoverWait = { done: Promise<HandoverOutcome>; cancel(): void };

export type HandoverWaitOptions = {
  // The service's lock directory (which must exist).
  dir: string;
  timeoutMs: number;
  scheduler: Scheduler;
  // Told synchronously, as the wait ends.
  onEnd(outcome: HandoverOutcome): void;
};

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

const signalled = async (dir: string): Promise<boolean> =>
  (await Promise.all(handoverFiles.map((file) => exists(join(dir, file))))).some(Boolean);

// A previous hand-over's signal must not end the next one at once.
export const clearHandover = async (dir: string): Promise<void> => {
  await Promise.all(handoverFiles.map((file) => rm(join(dir, file), { force: true })));
};

// Ends at the timeout on the agent's scheduler, or sooner when `watchSignal` sees the new
// container's signal (it is handed the function to call then, and returns how to stop watching).
export const handoverWait = (
  options: Omit<HandoverWaitOptions, 'dir'>,
  watchSignal?: (signalled: () => void) => () => void,
): HandoverWait => {
  let ended = false;
  let resolve: (outcome: HandoverOutcome) => void = () => undefined;
  const done = new Promise<HandoverOutcome>((settle) => {
    resolve = settle;
  });
  let unwatch: () => void = () => undefined;
  const timer = options.scheduler.after(options.timeoutMs, () => end('timed out'));
  const end = (outcome: HandoverOutcome): void => {
    if (ended) return;
    ended = true;
    unwatch();
    timer.cancel();
    options.onEnd(outcome);
    resolve(outcome);
  };
  if (watchSignal) {
    const stop = watchSignal(() => end('signalled'));
    if (ended) stop();
    else unwatch = stop;
  }
  return { done, cancel: () => end('cancelled') };
};

// Waits for the signal file in the service's lock directory, or the timeout.
export const waitForHandover = (options: HandoverWaitOptions): HandoverWait =>
  handoverWait(options, (found) => {
    const watcher = watch(options.dir);
    const check = (): void => {
      void signalled(options.dir).then((yes) => {
        if (yes) found();
      });
    };
    // A watcher that fails (the directory removed) leaves the timeout to end the wait.
    watcher.on('error', () => watcher.close());
    watcher.on('change', check);
    check();
    return () => watcher.close();
  });
