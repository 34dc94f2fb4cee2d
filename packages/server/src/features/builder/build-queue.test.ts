import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { type BuildStop, createBuildQueue, describeDuration, timedOutLine } from './build-queue.js';

// A schedule the test runs by hand: the time limit fires when the test says so.
const manualSchedule = () => {
  const tasks = new Map<number, { task: () => void; ms: number }>();
  let next = 0;
  const schedule: Schedule = (task, ms) => {
    const id = next++;
    tasks.set(id, { task, ms });
    return () => tasks.delete(id);
  };
  return {
    schedule,
    pending: () => [...tasks.values()].map((entry) => entry.ms),
    fireAll: () => {
      const due = [...tasks.values()];
      tasks.clear();
      due.forEach((entry) => entry.task());
    },
  };
};

const cancelled: BuildStop = { status: 'cancelled', line: 'Build cancelled by its user' };

describe('the build queue', () => {
  it('runs builds one at a time in the order they came, telling the waiting ones their place', async () => {
    const queue = createBuildQueue({ parallel: 1, timeoutMs: 60_000, schedule: () => () => {} });
    const places: Record<number, number[]> = { 1: [], 2: [], 3: [] };
    const first = queue.join(1, (place) => places[1]?.push(place));
    const second = queue.join(2, (place) => places[2]?.push(place));
    const third = queue.join(3, (place) => places[3]?.push(place));
    expect(await first.ready).toBe(true);
    expect(queue.counts()).toEqual({ running: 1, waiting: 2 });
    let secondStarted = false;
    void second.ready.then(() => (secondStarted = true));
    await Promise.resolve();
    expect(secondStarted).toBe(false);

    first.leave();
    expect(await second.ready).toBe(true);
    expect(places).toEqual({ 1: [], 2: [1], 3: [2, 1] });
    second.leave();
    expect(await third.ready).toBe(true);
    third.leave();
    expect(queue.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it('runs as many at once as it is told', async () => {
    const queue = createBuildQueue({ parallel: 2, timeoutMs: 60_000, schedule: () => () => {} });
    const heard: number[] = [];
    const a = queue.join(1, () => heard.push(1));
    const b = queue.join(2, () => heard.push(2));
    const c = queue.join(3, () => heard.push(3));
    expect(await Promise.all([a.ready, b.ready])).toEqual([true, true]);
    expect(heard).toEqual([3]);
    b.leave();
    expect(await c.ready).toBe(true);
    a.leave();
    c.leave();
  });

  it('drops a build stopped while it waits, and the ones behind it move up', async () => {
    const queue = createBuildQueue({ parallel: 1, timeoutMs: 60_000, schedule: () => () => {} });
    const first = queue.join(1, () => undefined);
    const second = queue.join(2, () => undefined);
    const places: number[] = [];
    const third = queue.join(3, (place) => places.push(place));
    expect(queue.stop(2, cancelled)).toBe(true);
    expect(await second.ready).toBe(false);
    expect(second.signal.aborted).toBe(true);
    expect(second.stopped()).toEqual(cancelled);
    expect(places).toEqual([2, 1]);
    // A build behind it leaving moves nobody up: nothing is said again.
    const fourth = queue.join(4, () => undefined);
    queue.stop(4, cancelled);
    expect(await fourth.ready).toBe(false);
    expect(places).toEqual([2, 1]);
    first.leave();
    expect(await third.ready).toBe(true);
    expect(queue.stop(99, cancelled)).toBe(false);
    third.leave();
  });

  it('aborts a running build that is stopped, and frees its place only when it leaves', async () => {
    const queue = createBuildQueue({ parallel: 1, timeoutMs: 60_000, schedule: () => () => {} });
    const first = queue.join(1, () => undefined);
    const second = queue.join(2, () => undefined);
    await first.ready;
    queue.stop(1, cancelled);
    expect(first.signal.aborted).toBe(true);
    expect(first.signal.reason).toEqual(cancelled);
    expect(queue.counts()).toEqual({ running: 1, waiting: 1 });
    first.leave();
    expect(await second.ready).toBe(true);
    second.leave();
  });

  it('stops a build when its outer signal aborts (a client gone), even before it joined', async () => {
    const queue = createBuildQueue({ parallel: 1, timeoutMs: 60_000, schedule: () => () => {} });
    const gone = new AbortController();
    const running = queue.join(1, () => undefined, gone.signal);
    await running.ready;
    gone.abort({ status: 'cancelled', line: 'the client went away' });
    expect(running.stopped()).toEqual({ status: 'cancelled', line: 'the client went away' });
    running.leave();

    const early = new AbortController();
    early.abort('not a stop');
    const late = queue.join(2, () => undefined, early.signal);
    expect(await late.ready).toBe(false);
    expect(late.stopped()).toEqual({ status: 'cancelled', line: 'Build cancelled' });
  });

  it('fails a build over its time limit, counted from its turn', async () => {
    const clock = manualSchedule();
    const queue = createBuildQueue({ parallel: 1, timeoutMs: 90_000, schedule: clock.schedule });
    const first = queue.join(1, () => undefined);
    const second = queue.join(2, () => undefined);
    await first.ready;
    // Only the running build's limit is counting.
    expect(clock.pending()).toEqual([90_000]);
    clock.fireAll();
    expect(first.stopped()).toEqual({ status: 'failed', line: timedOutLine(90_000) });
    expect(second.signal.aborted).toBe(false);
    first.leave();
    expect(await second.ready).toBe(true);
    expect(clock.pending()).toEqual([90_000]);
    // A build that ended in time leaves no limit behind.
    second.leave();
    expect(clock.pending()).toEqual([]);
  });

  it('says durations in the words of the log', () => {
    expect(describeDuration(2_000)).toBe('2 s');
    expect(describeDuration(90_000)).toBe('90 s');
    expect(describeDuration(60_000)).toBe('1 minute');
    expect(describeDuration(30 * 60_000)).toBe('30 minutes');
    expect(timedOutLine(30 * 60_000)).toMatch(/^Build failed: timed out after 30 minutes/);
  });
});
