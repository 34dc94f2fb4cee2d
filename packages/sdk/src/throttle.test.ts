import { describe, expect, it } from 'vitest';
import { createFakeClock } from './test-support/fake-clock.js';
import { createThrottle, type ThrottleNotice } from './throttle.js';

describe('createThrottle', () => {
  it('shows the notice for at least 5 seconds, then clears it', async () => {
    const clock = createFakeClock();
    const throttle = createThrottle(clock);
    const seen: Array<ThrottleNotice | null> = [];
    throttle.subscribe((notice) => seen.push(notice));
    const start = clock.now();

    throttle.reportRateLimited(1);
    expect(throttle.getNotice()).toEqual({ until: start + 5000 });
    await clock.advance(4999);
    expect(throttle.getNotice()).not.toBeNull();
    await clock.advance(1);
    expect(throttle.getNotice()).toBeNull();
    expect(seen).toEqual([{ until: start + 5000 }, null]);
  });

  it('waits for Retry-After when it is longer, and treats a missing one as 5 s', async () => {
    const clock = createFakeClock();
    const throttle = createThrottle(clock);
    throttle.reportRateLimited(12);
    expect(throttle.getNotice()).toEqual({ until: clock.now() + 12_000 });
    await clock.advance(12_000);
    throttle.reportRateLimited(undefined);
    expect(throttle.getNotice()).toEqual({ until: clock.now() + 5000 });
  });

  it('keeps the later of two notices', async () => {
    const clock = createFakeClock();
    const throttle = createThrottle(clock);
    const start = clock.now();
    throttle.reportRateLimited(30);
    await clock.advance(1000);
    throttle.reportRateLimited(5);
    expect(throttle.getNotice()).toEqual({ until: start + 30_000 });
    throttle.reportRateLimited(60);
    expect(throttle.getNotice()).toEqual({ until: start + 61_000 });
    await clock.advance(59_999);
    expect(throttle.getNotice()).not.toBeNull();
    await clock.advance(1);
    expect(throttle.getNotice()).toBeNull();
  });

  it('lets waiters through when the notice ends, and at once without one', async () => {
    const clock = createFakeClock();
    const throttle = createThrottle(clock);
    await throttle.wait();
    throttle.reportRateLimited(7);
    let released = false;
    void throttle.wait().then(() => {
      released = true;
    });
    await clock.advance(6999);
    expect(released).toBe(false);
    await clock.advance(1);
    expect(released).toBe(true);
  });

  it('stops waiting when aborted', async () => {
    const clock = createFakeClock();
    const throttle = createThrottle(clock);
    throttle.reportRateLimited(7);
    const controller = new AbortController();
    const waiting = throttle.wait(controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('gone'));
    expect(((await waiting) as Error).message).toBe('gone');
  });
});
