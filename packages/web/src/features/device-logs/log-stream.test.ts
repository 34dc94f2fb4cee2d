import { FlotillaApiError, FlotillaNetworkError } from '@flotilla/sdk/errors';
import { describe, expect, it } from 'vitest';
import { type LogLine, type LogStreamStatus, openLogStream } from './log-stream.js';

// A stream the test writes to, and a timer list the test fires by hand.
const controlledStream = () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    stream,
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
};

const line = (message: string, extra: Partial<LogLine> = {}): LogLine => ({
  message,
  createdAt: 1,
  timestamp: 1,
  isSystem: false,
  isStdErr: false,
  ...extra,
});

const apiError = (status: number) =>
  new FlotillaApiError({
    status,
    body: '',
    message: 'refused',
    method: 'GET',
    path: '/device/v2/x/logs',
    token: 'a-session-token',
  });

const setup = (answers: (() => Promise<ReadableStream<Uint8Array>>)[]) => {
  const counts: number[] = [];
  const timers: { callback: () => void; delayMs: number; cleared: boolean }[] = [];
  const lines: LogLine[] = [];
  const statuses: LogStreamStatus[] = [];
  // Resolves once `check` holds (checked after every event of the stream): waits on the signal.
  let waiters: { check: () => boolean; resolve: () => void }[] = [];
  const changed = () => {
    const ready = waiters.filter((waiter) => waiter.check());
    waiters = waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve();
  };
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      if (check()) resolve();
      else waiters.push({ check, resolve });
    });
  const stream = openLogStream({
    open: (count) => {
      counts.push(count);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected open #${counts.length}`);
      return answer();
    },
    timers: {
      setTimer: (callback, delayMs) => {
        const timer = { callback, delayMs, cleared: false };
        timers.push(timer);
        changed();
        return timer;
      },
      clearTimer: (handle) => {
        for (const timer of timers) if (timer === handle) timer.cleared = true;
      },
    },
    onLines: (batch) => {
      lines.push(...batch);
      changed();
    },
    onStatus: (status) => {
      statuses.push(status);
      changed();
    },
  });
  return { stream, counts, timers, lines, statuses, until };
};

describe('openLogStream', () => {
  it('asks for 100 lines of history, then passes on whole lines as they arrive', async () => {
    const body = controlledStream();
    const { counts, lines, statuses, until } = setup([async () => body.stream]);
    expect(counts).toEqual([100]);
    const first = JSON.stringify(line('one'));
    // A line split across chunks, a keep-alive, and lines that are not log lines.
    body.write(first.slice(0, 10));
    await until(() => statuses.includes('streaming'));
    expect(statuses).toEqual(['loading', 'streaming']);
    body.write(`${first.slice(10)}\n\n{"nope":1}\nnot json\n${JSON.stringify(line('two'))}\n`);
    await until(() => lines.length === 2);
    expect(lines.map((l) => l.message)).toEqual(['one', 'two']);
  });

  it('reconnects 1 s after the stream ends, without history, showing that it does', async () => {
    const first = controlledStream();
    const second = controlledStream();
    const { counts, timers, statuses, until } = setup([
      async () => first.stream,
      async () => second.stream,
    ]);
    await until(() => statuses.includes('streaming'));
    first.end();
    await until(() => timers.length === 1);
    expect(statuses.at(-1)).toBe('reconnecting');
    expect(timers.map((t) => t.delayMs)).toEqual([1000]);
    timers[0]?.callback();
    await until(() => statuses.at(-1) === 'streaming');
    expect(counts).toEqual([100, 0]);
  });

  it('waits 10 s after a network error or a 503, 1 s after another error', async () => {
    const { timers, until } = setup([
      async () => {
        throw new FlotillaNetworkError('network');
      },
      async () => {
        throw apiError(503);
      },
      async () => {
        throw apiError(500);
      },
    ]);
    for (let index = 0; index < 3; index++) {
      await until(() => timers.length > index);
      if (index < 2) timers[index]?.callback();
    }
    expect(timers.map((t) => t.delayMs)).toEqual([10_000, 10_000, 1000]);
  });

  it('gives up when the user may not read the logs', async () => {
    const { timers, statuses, until } = setup([
      async () => {
        throw apiError(401);
      },
    ]);
    await until(() => statuses.length === 2);
    expect(statuses).toEqual(['loading', 'unauthorized']);
    expect(timers).toEqual([]);
  });

  it('opens nothing again once closed', async () => {
    const body = controlledStream();
    const { stream, counts, timers, statuses, until } = setup([async () => body.stream]);
    await until(() => statuses.includes('streaming'));
    stream.close();
    body.end();
    // The reader sees the end on a later turn; by then the stream knows it was closed.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers).toEqual([]);
    expect(counts).toEqual([100]);
    expect(statuses).toEqual(['loading', 'streaming']);
  });
});
