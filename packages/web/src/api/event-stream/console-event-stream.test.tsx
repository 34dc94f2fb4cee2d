// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { liveUpdatesConnected } from '../../ui/live-updates.js';
import { streamedPolling, streamedRefreshMs } from '../../ui/polling.js';
import { queryRoots } from '../query-roots.js';
import { startConsoleEventStream } from './console-event-stream.js';

// The console's event stream through the real SDK against the fake API's streamed answer: an
// event refreshes the queries it makes stale (and only those), and the streamed screens' polls
// slow down while it is connected and speed up again when it drops.
describe('startConsoleEventStream', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  const setUp = () => {
    const api = createFakeApi();
    const encoder = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let opened = 0;
    api.on('GET', '/events/v1/stream', () => {
      opened += 1;
      return {
        status: 200,
        stream: new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) }),
      };
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetched = { devices: 0, webhooks: 0 };
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({
        devices: useQuery({
          queryKey: [...queryRoots.devices, 'fleet', 1, 'page'],
          queryFn: () => ++fetched.devices,
          ...streamedPolling(8_000),
        }),
        webhooks: useQuery({
          queryKey: [...queryRoots.webhooks, 'endpoints'],
          queryFn: () => ++fetched.webhooks,
          staleTime: Infinity,
        }),
      }),
      { wrapper },
    );
    const handle = startConsoleEventStream(api.client, queryClient);
    stops.push(() => handle.stop());
    return {
      result,
      fetched,
      opened: () => opened,
      send: (text: string) => controller?.enqueue(encoder.encode(text)),
      end: () => controller?.close(),
    };
  };

  it('refreshes the device queries when a device event arrives, and nothing else', async () => {
    const { result, fetched, send } = setUp();
    await waitFor(() => expect(result.current.devices.data).toBe(1));
    await waitFor(() => expect(liveUpdatesConnected()).toBe(true));
    expect(streamedPolling(8_000).refetchInterval).toBeTypeOf('function');
    const interval = streamedPolling(8_000).refetchInterval;
    expect(typeof interval === 'function' ? interval() : interval).toBe(streamedRefreshMs);

    send(': connected\n\nid: 3\ndata: {"type":"device.online","fleet":1,"device":2}\n\n');
    await waitFor(() => expect(result.current.devices.data).toBe(2));
    expect(fetched.webhooks).toBe(1);
  });

  it('refreshes once for a burst of events, and everything it keeps fresh on a reset', async () => {
    const { result, send } = setUp();
    await waitFor(() => expect(liveUpdatesConnected()).toBe(true));
    await waitFor(() => expect(result.current.devices.data).toBe(1));
    const burst = [4, 5, 6]
      .map((id) => `id: ${id}\ndata: {"type":"device.offline","fleet":1,"device":${id}}\n\n`)
      .join('');
    send(burst);
    await waitFor(() => expect(result.current.devices.data).toBe(2));
    send('id: 90\nevent: reset\ndata: {"reason":"Too many events since then"}\n\n');
    await waitFor(() => expect(result.current.devices.data).toBe(3));
  });

  it('polls at the screen’s own rate again once the stream drops, refreshing at once', async () => {
    const { result, end, opened } = setUp();
    await waitFor(() => expect(liveUpdatesConnected()).toBe(true));
    await waitFor(() => expect(result.current.devices.data).toBe(1));
    end();
    await waitFor(() => expect(liveUpdatesConnected()).toBe(false));
    const interval = streamedPolling(8_000).refetchInterval;
    expect(typeof interval === 'function' ? interval() : interval).toBe(8_000);
    await waitFor(() => expect(result.current.devices.data).toBe(2));
    expect(opened()).toBe(1);
  });
});
