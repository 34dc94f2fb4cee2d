import { describe, expect, it, vi } from 'vitest';
import { runWithConcurrency } from './run-with-concurrency.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('runWithConcurrency', () => {
  it('never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const items = Array.from({ length: 23 }, (_, index) => index);
    await runWithConcurrency(items, 5, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      running -= 1;
    });
    expect(peak).toBe(5);
  });

  it('answers one outcome per item, in input order, failures included', async () => {
    // Each call waits until the test releases it; the second of a pair is released first, so
    // later items finish first and the order must still follow the input.
    const waiting = new Map<number, () => void>();
    const running = runWithConcurrency([3, 1, 2, 4], 2, async (item) => {
      await new Promise<void>((resolve) => waiting.set(item, resolve));
      if (item % 2 === 0) throw new Error(`even ${item}`);
      return item * 10;
    });
    const release = async (item: number): Promise<void> => {
      await vi.waitFor(() => expect(waiting.has(item)).toBe(true));
      waiting.get(item)?.();
    };
    await release(1);
    await release(3);
    await release(4);
    await release(2);
    const outcomes = await running;
    expect(outcomes.map((outcome) => outcome.item)).toEqual([3, 1, 2, 4]);
    expect(outcomes[0]).toEqual({ item: 3, ok: true, value: 30 });
    expect(outcomes[1]).toEqual({ item: 1, ok: true, value: 10 });
    expect(outcomes[2]).toMatchObject({ item: 2, ok: false, error: new Error('even 2') });
    expect(outcomes[3]).toMatchObject({ item: 4, ok: false });
  });

  it('handles no items and a limit above the item count', async () => {
    expect(await runWithConcurrency([], 50, async () => 1)).toEqual([]);
    let calls = 0;
    const outcomes = await runWithConcurrency(['a', 'b'], 50, async (item, index) => {
      calls += 1;
      return `${item}${index}`;
    });
    expect(calls).toBe(2);
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.value : null))).toEqual(['a0', 'b1']);
  });

  it('still runs one at a time with a limit below one', async () => {
    let running = 0;
    let peak = 0;
    await runWithConcurrency([1, 2, 3], 0, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      running -= 1;
    });
    expect(peak).toBe(1);
  });
});
