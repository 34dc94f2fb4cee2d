import { FlotillaApiError, FlotillaNetworkError } from '@flotilla/sdk/errors';
import {
  logInitialLines,
  logReconnectMs,
  logReconnectSlowMs,
} from '@flotilla/shared/devices/device-panel-constants';

// One line of GET /device/v2/:uuid/logs (wire contract section 6).
export type LogLine = {
  message: string;
  createdAt: number;
  timestamp: number;
  isSystem: boolean;
  isStdErr: boolean;
  serviceId?: number;
};

// loading: the first connection is being made; streaming: lines (or keep-alives) flow;
// reconnecting: the stream broke and is opened again after a delay; unauthorized: the server
// refused the user (no point in retrying).
export type LogStreamStatus = 'loading' | 'streaming' | 'reconnecting' | 'unauthorized';

export type LogStreamTimers = {
  setTimer: (callback: () => void, delayMs: number) => unknown;
  clearTimer: (handle: unknown) => void;
};

export type LogStreamDeps = {
  // Opens the stream asking for `count` history lines first (the SDK's client.stream).
  open: (count: number, signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;
  timers: LogStreamTimers;
  onLines: (lines: LogLine[]) => void;
  onStatus: (status: LogStreamStatus) => void;
};

const isLogLine = (value: unknown): value is LogLine =>
  typeof value === 'object' &&
  value !== null &&
  'message' in value &&
  typeof value.message === 'string' &&
  'timestamp' in value &&
  typeof value.timestamp === 'number';

// Complete NDJSON lines of a chunk: what is not a log line (keep-alive newlines, garbage) is
// skipped; the unfinished tail waits for the next chunk.
export const createLineSplitter = () => {
  const decoder = new TextDecoder();
  let tail = '';
  return (chunk: Uint8Array): LogLine[] => {
    const parts = (tail + decoder.decode(chunk, { stream: true })).split('\n');
    tail = parts.pop() ?? '';
    const lines: LogLine[] = [];
    for (const part of parts) {
      if (part.trim() === '') continue;
      try {
        const value: unknown = JSON.parse(part);
        if (isLogLine(value)) lines.push(value);
      } catch {
        // Not JSON: skipped, the stream goes on.
      }
    }
    return lines;
  };
};

// After an error wait 1 s and open the stream again, 10 s after a network
// error or a 503.
export const reconnectDelayOf = (error: unknown): number | 'stop' => {
  if (error instanceof FlotillaApiError) {
    if (error.status === 401 || error.status === 403) return 'stop';
    return error.status === 503 ? logReconnectSlowMs : logReconnectMs;
  }
  return error instanceof FlotillaNetworkError ? logReconnectSlowMs : logReconnectMs;
};

// The device's log stream kept open: history (100 lines) then live lines, opened again after a
// break without history (100 lines at first, none on a reconnect). close() ends it.
export const openLogStream = (deps: LogStreamDeps): { close: () => void } => {
  const controller = new AbortController();
  let timer: unknown;
  let closed = false;

  const connect = async (count: number): Promise<void> => {
    let delay: number | 'stop';
    try {
      const body = await deps.open(count, controller.signal);
      deps.onStatus('streaming');
      const split = createLineSplitter();
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || closed) break;
          const lines = split(value);
          if (lines.length > 0) deps.onLines(lines);
        }
      } finally {
        reader.releaseLock();
      }
      // The server ended the stream (it restarted, a proxy cut it): open it again.
      delay = logReconnectMs;
    } catch (error) {
      delay = reconnectDelayOf(error);
    }
    if (closed) return;
    if (delay === 'stop') {
      deps.onStatus('unauthorized');
      return;
    }
    deps.onStatus('reconnecting');
    timer = deps.timers.setTimer(() => void connect(0), delay);
  };

  deps.onStatus('loading');
  void connect(logInitialLines);
  return {
    close: () => {
      closed = true;
      deps.timers.clearTimer(timer);
      controller.abort();
    },
  };
};
