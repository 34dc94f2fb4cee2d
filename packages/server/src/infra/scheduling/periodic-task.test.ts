import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerPeriodicTask, type Schedule } from './periodic-task.js';

// A schedule the test fires by hand: what is pending, and after how long.
const manualSchedule = () => {
  const pending: { task: () => void; ms: number }[] = [];
  const schedule: Schedule = (task, ms) => {
    const entry = { task, ms };
    pending.push(entry);
    return () => {
      const index = pending.indexOf(entry);
      if (index >= 0) pending.splice(index, 1);
    };
  };
  const fire = (): void => {
    const entry = pending.shift();
    if (!entry) throw new Error('nothing scheduled');
    entry.task();
  };
  return { pending, schedule, fire };
};

const deferred = () => {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

// An app whose warnings are kept as parsed log lines.
const appWithLog = (): { app: FastifyInstance; warnings: { msg: string }[] } => {
  const warnings: { msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line: unknown = JSON.parse(chunk.toString());
      if (typeof line === 'object' && line !== null && 'msg' in line) {
        warnings.push({ msg: String(line.msg) });
      }
      done();
    },
  });
  return { app: Fastify({ logger: { level: 'warn', stream } }), warnings };
};

describe('registerPeriodicTask', () => {
  it('starts when the app is ready and schedules the next run only after a run ended', async () => {
    const clock = manualSchedule();
    const runs: ReturnType<typeof deferred>[] = [];
    const { app } = appWithLog();
    registerPeriodicTask(app, {
      run: () => {
        const run = deferred();
        runs.push(run);
        return run.promise;
      },
      intervalMs: 60_000,
      firstRunMs: 0,
      failure: 'could not run',
      schedule: clock.schedule,
    });
    expect(clock.pending).toEqual([]);
    await app.ready();
    expect(clock.pending.map((entry) => entry.ms)).toEqual([0]);
    clock.fire();
    expect(runs).toHaveLength(1);
    // The run is still going: nothing else is scheduled, so runs never overlap.
    expect(clock.pending).toEqual([]);
    runs[0]?.resolve();
    await expect.poll(() => clock.pending.map((entry) => entry.ms)).toEqual([60_000]);
    await app.close();
  });

  it('waits one interval for the first run by default', async () => {
    const clock = manualSchedule();
    const { app } = appWithLog();
    registerPeriodicTask(app, {
      run: () => Promise.resolve(),
      intervalMs: 5_000,
      failure: 'could not run',
      schedule: clock.schedule,
    });
    await app.ready();
    expect(clock.pending.map((entry) => entry.ms)).toEqual([5_000]);
    await app.close();
  });

  it('logs a failed run and runs again on the next interval', async () => {
    const clock = manualSchedule();
    const { app, warnings } = appWithLog();
    let calls = 0;
    registerPeriodicTask(app, {
      run: () => {
        calls += 1;
        return Promise.reject(new Error('database away'));
      },
      intervalMs: 1_000,
      failure: 'could not sweep; will retry',
      schedule: clock.schedule,
    });
    await app.ready();
    clock.fire();
    await expect.poll(() => clock.pending.length).toBe(1);
    expect(warnings).toEqual([{ msg: 'could not sweep; will retry' }]);
    clock.fire();
    await expect.poll(() => calls).toBe(2);
    await app.close();
  });

  it('cancels the next run on close, and the close waits for a run in progress', async () => {
    const clock = manualSchedule();
    const { app } = appWithLog();
    const run = deferred();
    const events: string[] = [];
    registerPeriodicTask(app, {
      run: async () => {
        await run.promise;
        events.push('run ended');
      },
      intervalMs: 1_000,
      firstRunMs: 0,
      failure: 'could not run',
      schedule: clock.schedule,
    });
    await app.ready();
    clock.fire();
    const closing = app.close().then(() => events.push('closed'));
    // The run ends only after the close began; a close that did not wait would end first.
    setImmediate(run.resolve);
    await closing;
    expect(events).toEqual(['run ended', 'closed']);
    // Closed: no run is scheduled after the last one.
    expect(clock.pending).toEqual([]);
  });
});
