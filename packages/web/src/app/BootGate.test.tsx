// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeClient } from '../features/fleets/application/test-helpers.js';
import { BootGate } from './BootGate.js';
import { ClientProvider } from './client.js';

afterEach(cleanup);

describe('BootGate', () => {
  it('asks for the configuration and the session at once, then shows the app', async () => {
    const { client } = fakeClient({});
    let whoamiAsked: () => void = () => undefined;
    const whoamiStarted = new Promise<void>((resolve) => {
      whoamiAsked = resolve;
    });
    // The configuration answers only once whoami has been asked: a boot that waited for the
    // configuration before asking whoami would never finish.
    const config = vi.fn(async () => {
      await whoamiStarted;
      return { deployment: null };
    });
    const whoami = vi.fn(async () => {
      whoamiAsked();
      return { id: 1, actorType: 'user', actorTypeId: 7, username: 'ada', email: null };
    });
    Object.assign(client, { config });
    Object.assign(client.auth, { whoami });
    render(
      <ClientProvider client={client}>
        <QueryClientProvider client={new QueryClient()}>
          <BootGate>
            <p>the app</p>
          </BootGate>
        </QueryClientProvider>
      </ClientProvider>,
    );
    await screen.findByText('the app');
    expect(config).toHaveBeenCalledTimes(1);
    expect(whoami).toHaveBeenCalledTimes(1);
  });
});
