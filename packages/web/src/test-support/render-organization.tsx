import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ClientProvider } from '../api/client.js';
import { consoleRoutes } from '../app/router.js';
import { createFakeApi } from './fake-api.js';
import type { FakeData } from './fake-odata.js';
import { ToastProvider } from '../ui/toasts.js';
import { organizationWorld } from './organization-fixtures.js';

// The organization screens through the console's route table, against the strict fake API.
export const renderAt = (
  path: string,
  ownRole: 'administrator' | 'member' = 'administrator',
  adjust: (data: FakeData) => void = () => undefined,
  config: Record<string, unknown> = {},
) => {
  const data = organizationWorld(ownRole);
  adjust(data);
  const api = createFakeApi(data);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: {}, ...config },
  }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  // A created team as the list reads it back.
  api.shapeCreated('team', (body) => ({
    ...body,
    created_at: '2026-02-01T00:00:00Z',
    team_membership: [],
    team_application_access: [],
  }));
  api.shapeCreated('invitee__is_invited_to__organization', (body) => ({
    ...body,
    is_invited_to__organization: { __id: body.is_invited_to__organization },
    invitee: [{ email: body.invitee }],
    organization_membership_role: [{ name: 'member' }],
  }));
  const router = createMemoryRouter(consoleRoutes(), { initialEntries: [path] });
  render(
    <ClientProvider client={api.client}>
      <ToastProvider>
        <QueryClientProvider
          client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        >
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ToastProvider>
    </ClientProvider>,
  );
  return { api, router, user: userEvent.setup() };
};
