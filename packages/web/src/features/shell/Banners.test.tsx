// @vitest-environment jsdom
import { createFlotillaClient } from '@flotilla/sdk/create-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { OfflineBanner } from './Banners.js';
import { HelpMenu } from './HelpMenu.js';

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  cleanup();
});

// The real SDK client on a fetch that fails while `network.down`, and timers that never fire
// (retries wait for the test): only the browser's online/offline events move it. The fetch knows
// /ping and /config; any other request is recorded and fails.
const renderChrome = () => {
  const network = { down: false, pings: 0, configs: 0, unexpected: [] as string[] };
  const client = createFlotillaClient({
    apiUrl: 'http://api.test',
    fetch: async (input) => {
      const path = new URL(String(input)).pathname;
      if (network.down) throw new TypeError('fetch failed');
      if (path === '/ping') {
        network.pings += 1;
        return new Response('OK');
      }
      if (path === '/config') {
        network.configs += 1;
        return Response.json({ deployment: null, analytics: null });
      }
      network.unexpected.push(path);
      throw new Error(`unexpected request ${path}`);
    },
    setTimer: () => 0,
    clearTimer: () => undefined,
  });
  render(
    <ClientProvider client={client}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <HelpMenu />
          <OfflineBanner />
        </MemoryRouter>
      </QueryClientProvider>
    </ClientProvider>,
  );
  stops.push(client.connectivity.start());
  return { client, network };
};

const statusButton = (status: string) =>
  screen.queryByRole('button', { name: `Help and status: ${status}` });

describe('offline detection from the browser', () => {
  it('shows the offline banner and the amber status as soon as the browser goes offline', async () => {
    const { client, network } = renderChrome();
    // The help menu's /config request is answered before the network goes.
    await waitFor(() => expect(network.configs).toBe(1));
    expect(statusButton('All systems operational')).toBeTruthy();
    expect(screen.queryByText('We are offline, trying to reconnect...')).toBeNull();

    network.down = true;
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    // At once: no request had to fail three times first.
    expect(screen.getByText('We are offline, trying to reconnect...')).toBeTruthy();
    expect(statusButton('Connection problems')).toBeTruthy();
    // The ping it started fails; the next one waits for a retry timer that never fires here.
    await waitFor(() => expect(client.connectivity.getState().failures).toBe(1));
    expect(client.connectivity.getState().lost).toBe(true);

    network.down = false;
    const pingsBefore = network.pings;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    // Coming back pings the API at once, and its answer clears the lost state.
    await waitFor(() => expect(client.connectivity.getState().lost).toBe(false));
    expect(network.pings).toBe(pingsBefore + 1);
    expect(statusButton('All systems operational')).toBeTruthy();
    expect(network.unexpected).toEqual([]);
  });
});
