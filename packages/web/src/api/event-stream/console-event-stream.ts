import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { FlotillaApiError } from '@flotilla/sdk/errors';
import type { QueryClient } from '@tanstack/react-query';
import { setLiveUpdatesConnected } from '../../ui/live-updates.js';
import { connectEventStream, type EventStreamHandle } from './event-stream-connection.js';
import { keysOfEvent, type StreamedEnvelope, streamedRoots } from './event-keys.js';
import type { SseEvent } from './sse-parser.js';

// Events arriving together (a fleet going offline at once) refresh each screen once.
const coalesceMs = 250;

const envelopeOf = (data: string): StreamedEnvelope | undefined => {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const type = 'type' in parsed ? parsed.type : undefined;
    const fleet = 'fleet' in parsed ? parsed.fleet : null;
    if (typeof type !== 'string') return undefined;
    return { type, fleet: typeof fleet === 'number' ? fleet : null };
  } catch {
    return undefined;
  }
};

// The signed-in user's event stream (GET /events/v1/stream) kept open, each event refreshing the
// queries it makes stale; the screens it keeps fresh poll rarely while it is connected.
export const startConsoleEventStream = (
  client: FlotillaClient,
  queryClient: QueryClient,
): EventStreamHandle => {
  const pending = new Map<string, readonly unknown[]>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    flushTimer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  const invalidate = (keys: readonly (readonly unknown[])[]): void => {
    for (const key of keys) pending.set(JSON.stringify(key), key);
    flushTimer ??= setTimeout(flush, coalesceMs);
  };
  let wasOpen = false;

  const handle = connectEventStream({
    open: (lastEventId, signal) =>
      client.stream({
        path: '/events/v1/stream',
        signal,
        ...(lastEventId === undefined ? {} : { headers: { 'Last-Event-ID': lastEventId } }),
      }),
    onEvent: (event: SseEvent) => {
      // A reset: more happened than the stream replays; everything it keeps fresh is reloaded.
      if (event.event === 'reset') return invalidate(streamedRoots);
      const envelope = envelopeOf(event.data);
      if (envelope) invalidate(keysOfEvent(envelope));
    },
    onHealth: (health) => {
      setLiveUpdatesConnected(health === 'open');
      // Polls were slowed while it was open: refresh now rather than at their slow pace.
      if (health === 'down' && wasOpen) invalidate(streamedRoots);
      wasOpen = health === 'open';
    },
    isFinal: (error) =>
      error instanceof FlotillaApiError && (error.status === 401 || error.status === 403),
  });
  return {
    stop: () => {
      handle.stop();
      clearTimeout(flushTimer);
      setLiveUpdatesConnected(false);
    },
  };
};
