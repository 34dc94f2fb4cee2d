import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ClientProvider } from '../api/client.js';
import { consoleRoutes } from '../app/router.js';
import { ToastProvider } from '../ui/toasts.js';
import type { FakeApi } from './fake-api.js';

// The console's own route table in memory, opened at `path`: feature tests reach the whole
// console through here, as features never import the app shell.
export const consoleRouterAt = (path: string) =>
  createMemoryRouter(consoleRoutes(), { initialEntries: [path] });

// The console's own routes at `path`, under the providers the app gives them (the client, the
// toasts, a query cache that does not retry), for screen tests against the strict fake API.
// `strict` renders under React's StrictMode, as main.tsx does (effects run twice in development).
export const renderConsoleAt = (
  client: FlotillaClient,
  path: string,
  options: { strict?: boolean } = {},
) => {
  const router = consoleRouterAt(path);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (
    <ClientProvider client={client}>
      <ToastProvider>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ToastProvider>
    </ClientProvider>
  );
  render(options.strict === true ? <StrictMode>{tree}</StrictMode> : tree);
  return { router, queryClient };
};

// What the boot asks before any screen (api/session/api-boot.ts): the public configuration and, for a
// session, whoami — answered as for the fixtures' user 7, "ada".
export const answerBoot = (api: FakeApi): void => {
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
};
