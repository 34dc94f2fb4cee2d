import { createSseParser, type SseEvent } from './sse-parser.js';

// 'open' while a stream is connected and alive; 'down' between attempts and after a refusal.
export type StreamHealth = 'open' | 'down';

export type EventStreamDeps = {
  // Opens the stream (resuming after `lastEventId` when given); rejects on an error answer.
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  onEvent(event: SseEvent): void;
  onHealth(health: StreamHealth): void;
  // An error after which trying again is pointless (the session is gone): no reconnection.
  isFinal(error: unknown): boolean;
  // The first reconnection waits this long (or what the server asked with `retry:`), doubling
  // with each failed attempt up to maxDelayMs.
  initialDelayMs?: number;
  maxDelayMs?: number;
  // The server sends a heartbeat every 15 s: a stream silent this long is dead (a proxy or a
  // sleeping laptop dropped it without telling) and is reopened.
  idleMs?: number;
};

export type EventStreamHandle = { stop(): void };

// Keeps one event stream open: reads it as it arrives, reconnects with backoff after a drop,
// resuming with Last-Event-ID so nothing is missed or seen twice.
export const connectEventStream = (deps: EventStreamDeps): EventStreamHandle => {
  const initialDelayMs = deps.initialDelayMs ?? 1_000;
  const maxDelayMs = deps.maxDelayMs ?? 60_000;
  const idleMs = deps.idleMs ?? 45_000;
  let stopped = false;
  let failures = 0;
  let lastEventId: string | undefined;
  let serverRetryMs: number | undefined;
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let health: StreamHealth | undefined;

  const report = (next: StreamHealth): void => {
    if (health === next) return;
    health = next;
    deps.onHealth(next);
  };
  const armIdle = (current: AbortController): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => current.abort(), idleMs);
  };
  const scheduleRetry = (): void => {
    if (stopped) return;
    report('down');
    const base = Math.max(initialDelayMs, serverRetryMs ?? 0);
    const delay = Math.min(maxDelayMs, base * 2 ** failures);
    failures += 1;
    retryTimer = setTimeout(() => void attempt(), delay);
  };

  const read = async (body: ReadableStream<Uint8Array>, current: AbortController) => {
    const parser = createSseParser((event) => {
      if (event.id !== undefined) lastEventId = event.id;
      deps.onEvent(event);
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const abort = () => void reader.cancel().catch(() => undefined);
    current.signal.addEventListener('abort', abort);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || current.signal.aborted) return;
        armIdle(current);
        parser.push(decoder.decode(value, { stream: true }));
        serverRetryMs = parser.retryMs() ?? serverRetryMs;
        lastEventId = parser.lastEventId() ?? lastEventId;
      }
    } finally {
      current.signal.removeEventListener('abort', abort);
    }
  };

  const attempt = async (): Promise<void> => {
    if (stopped) return;
    const current = new AbortController();
    controller = current;
    try {
      const body = await deps.open(lastEventId, current.signal);
      if (stopped) return;
      failures = 0;
      report('open');
      armIdle(current);
      await read(body, current);
    } catch (error) {
      if (stopped) return;
      if (deps.isFinal(error)) {
        report('down');
        return;
      }
    } finally {
      clearTimeout(idleTimer);
    }
    scheduleRetry();
  };

  void attempt();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(idleTimer);
      controller?.abort();
    },
  };
};
