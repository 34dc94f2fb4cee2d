import type { FastifyInstance } from 'fastify';

// Runs `task` once after `ms`; the returned function cancels it. Injectable for tests.
export type Schedule = (task: () => void, ms: number) => () => void;

// Timers that never keep the process alive on their own.
export const timerSchedule: Schedule = (task, ms) => {
  const timer = setTimeout(task, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export type PeriodicTask = {
  run: () => Promise<void>;
  intervalMs: number;
  // Delay of the first run once the app is ready: 0 catches up at once on what a stopped
  // process left behind; by default one interval.
  firstRunMs?: number;
  // What the log says when a run fails; the next run tries again.
  failure: string;
  schedule?: Schedule | undefined;
};

// A background job of the app: started when it is ready, stopped when it closes (waiting for a
// run in progress), each run scheduled only after the previous one ended, so runs never
// overlap, however long one takes.
export const registerPeriodicTask = (app: FastifyInstance, task: PeriodicTask): void => {
  const schedule = task.schedule ?? timerSchedule;
  let cancel: (() => void) | undefined;
  let closed = false;
  let running: Promise<void> | undefined;
  const runOnce = async (): Promise<void> => {
    try {
      await task.run();
    } catch (error) {
      app.log.warn({ err: error }, task.failure);
    }
  };
  const next = (ms: number): void => {
    cancel = schedule(() => {
      running = runOnce().finally(() => {
        running = undefined;
        if (!closed) next(task.intervalMs);
      });
    }, ms);
  };
  app.addHook('onReady', async () => {
    next(task.firstRunMs ?? task.intervalMs);
  });
  app.addHook('onClose', async () => {
    closed = true;
    cancel?.();
    await running;
  });
};
