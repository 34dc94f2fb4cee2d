import { describe, expect, it } from 'vitest';
import { Scheduler } from './scheduler.js';
import { ManualClock } from './test-support/manual-clock.js';

describe('Scheduler', () => {
  it('runs tasks in due order on a single clock timer', () => {
    const clock = new ManualClock();
    const scheduler = new Scheduler(clock);
    const order: string[] = [];
    scheduler.after(300, () => order.push('c'));
    scheduler.after(100, () => order.push('a'));
    scheduler.after(200, () => order.push('b'));
    expect(clock.pending).toBe(1);
    clock.advance(250);
    expect(order).toEqual(['a', 'b']);
    clock.advance(100);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(scheduler.size).toBe(0);
  });

  it('skips cancelled tasks and lets tasks schedule more work', () => {
    const clock = new ManualClock();
    const scheduler = new Scheduler(clock);
    const order: number[] = [];
    const cancelled = scheduler.after(10, () => order.push(0));
    scheduler.after(20, () => {
      order.push(1);
      scheduler.after(5, () => order.push(2));
    });
    cancelled.cancel();
    clock.advance(100);
    expect(order).toEqual([1, 2]);
  });

  it('keeps thousands of tasks on one timer and reports errors without stopping', () => {
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const scheduler = new Scheduler(clock, (error) => errors.push(error));
    let runs = 0;
    for (let index = 0; index < 5000; index++) {
      scheduler.after((index * 7919) % 10_000, () => {
        runs++;
        if (index === 3) throw new Error('boom');
      });
    }
    expect(clock.pending).toBe(1);
    clock.advance(10_000);
    expect(runs).toBe(5000);
    expect(errors).toHaveLength(1);
  });

  it('does nothing after stop', () => {
    const clock = new ManualClock();
    const scheduler = new Scheduler(clock);
    let ran = false;
    scheduler.after(10, () => (ran = true));
    scheduler.stop();
    scheduler.after(10, () => (ran = true));
    clock.advance(100);
    expect(ran).toBe(false);
  });
});
