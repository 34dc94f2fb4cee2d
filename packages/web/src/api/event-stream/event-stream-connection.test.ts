import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectEventStream,
  type EventStreamDeps,
  type StreamHealth,
} from './event-stream-connection.js';
import type { SseEvent } from './sse-parser.js';

// A stream body the test writes to and ends, as the server would.
const controllable = () => {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (cancelled = true),
  });
  const encoder = new TextEncoder();
  return {
    body,
    cancelled: () => cancelled,
    write: (text: string) => controller?.enqueue(encoder.encode(text)),
    end: () => controller?.close(),
  };
};
type Body = ReturnType<typeof controllable>;

// The connection's work runs on promises between timers: let them settle.
const settle = async () => {
  for (let index = 0; index < 10; index += 1) await Promise.resolve();
};

describe('connectEventStream', () => {
  let opens: (string | undefined)[];
  let bodies: Body[];
  let events: SseEvent[];
  let health: StreamHealth[];
  let refuse: ((attempt: number) => Error | undefined) | undefined;
  const start = (overrides: Partial<EventStreamDeps> = {}) =>
    connectEventStream({
      open: (lastEventId) => {
        opens.push(lastEventId);
        const refusal = refuse?.(opens.length);
        if (refusal) return Promise.reject(refusal);
        const body = controllable();
        bodies.push(body);
        return Promise.resolve(body.body);
      },
      onEvent: (event) => events.push(event),
      onHealth: (next) => health.push(next),
      isFinal: (error) => error instanceof Error && error.message === 'unauthorized',
      initialDelayMs: 1_000,
      maxDelayMs: 8_000,
      idleMs: 45_000,
      ...overrides,
    });

  beforeEach(() => {
    vi.useFakeTimers();
    opens = [];
    bodies = [];
    events = [];
    health = [];
    refuse = undefined;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads events and, after a drop, reconnects once with the last id', async () => {
    const handle = start();
    await settle();
    expect(health).toEqual(['open']);
    bodies[0]?.write('retry: 3000\n: connected\n\nid: 5\ndata: {"n":1}\n\n');
    await settle();
    expect(events).toEqual([{ id: '5', event: 'message', data: '{"n":1}' }]);
    bodies[0]?.end();
    await settle();
    expect(health).toEqual(['open', 'down']);
    // The server asked for 3 s between attempts.
    await vi.advanceTimersByTimeAsync(2_999);
    expect(opens).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(opens).toEqual([undefined, '5']);
    expect(health).toEqual(['open', 'down', 'open']);
    handle.stop();
  });

  it('backs off exponentially while attempts fail, up to the maximum, then starts over', async () => {
    refuse = (attempt) => (attempt <= 5 ? new Error('unreachable') : undefined);
    const handle = start();
    await settle();
    const times: number[] = [];
    for (const wait of [1_000, 2_000, 4_000, 8_000, 8_000]) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      times.push(opens.length);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
    }
    // Each attempt came exactly when its delay ran out, not a millisecond before.
    expect(times).toEqual([1, 2, 3, 4, 5]);
    expect(opens).toHaveLength(6);
    expect(health).toEqual(['down', 'open']);
    // Connected again: the next drop waits the first delay again.
    bodies[0]?.end();
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(opens).toHaveLength(7);
    handle.stop();
  });

  it('stops trying after a final refusal (the session is gone)', async () => {
    refuse = () => new Error('unauthorized');
    start();
    await settle();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(opens).toHaveLength(1);
    expect(health).toEqual(['down']);
  });

  it('reopens a stream that went silent past the idle limit', async () => {
    const handle = start();
    await settle();
    bodies[0]?.write(': heartbeat\n\n');
    await vi.advanceTimersByTimeAsync(44_999);
    expect(opens).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(health).toEqual(['open', 'down']);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(opens).toHaveLength(2);
    handle.stop();
  });

  it('closes the stream when stopped, and reconnects no more', async () => {
    const handle = start();
    await settle();
    handle.stop();
    await settle();
    expect(bodies[0]?.cancelled()).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(opens).toHaveLength(1);
  });
});
