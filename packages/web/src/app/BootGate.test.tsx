// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../test-support/fake-api.js';
import { BootGate } from './BootGate.js';
import { ClientProvider } from '../api/client.js';

afterEach(cleanup);

describe('BootGate', () => {
  it('asks for the configuration and the session at once, then shows the app', async () => {
    const api = createFakeApi({});
    let whoamiAsked: () => void = () => undefined;
    const whoamiStarted = new Promise<void>((resolve) => {
      whoamiAsked = resolve;
    });
    let configCalls = 0;
    let whoamiCalls = 0;
    // The configuration answers only once whoami has been asked: a boot that waited for the
    // configuration before asking whoami would never finish.
    api.on('GET', '/config', async () => {
      configCalls += 1;
      await whoamiStarted;
      return { status: 200, body: { deployment: null } };
    });
    api.on('GET', '/actor/v1/whoami', () => {
      whoamiCalls += 1;
      whoamiAsked();
      return {
        status: 200,
        body: { id: 1, actorType: 'user', actorTypeId: 7, username: 'ada', email: null },
      };
    });
    render(
      <ClientProvider client={api.client}>
        <QueryClientProvider client={new QueryClient()}>
          <BootGate>
            <p>the app</p>
          </BootGate>
        </QueryClientProvider>
      </ClientProvider>,
    );
    await screen.findByText('the app');
    expect(configCalls).toBe(1);
    expect(whoamiCalls).toBe(1);
  });
});
