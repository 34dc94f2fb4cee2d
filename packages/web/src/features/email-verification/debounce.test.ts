import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce.js';
import { resendDebounceMs } from './VerificationPendingPage.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('debounce', () => {
  it('runs once, 300 ms after the last call of a burst (seed 000 section 4: resend)', () => {
    vi.useFakeTimers();
    const action = vi.fn();
    const resend = debounce(action, resendDebounceMs);
    expect(resendDebounceMs).toBe(300);
    resend.call();
    vi.advanceTimersByTime(200);
    resend.call();
    vi.advanceTimersByTime(299);
    expect(action).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(action).toHaveBeenCalledTimes(1);
    resend.call();
    resend.cancel();
    vi.advanceTimersByTime(1000);
    expect(action).toHaveBeenCalledTimes(1);
  });
});
