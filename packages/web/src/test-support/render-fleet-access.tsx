import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ClientProvider } from '../api/client.js';
import { consoleRoutes } from '../app/router.js';
import { createFakeApi } from './fake-api.js';
import type { FakeData } from './fake-odata.js';
import { ToastProvider } from '../ui/toasts.js';
import { fleetAccessWorld } from './fleet-access-fixtures.js';

// The fleet Members and Teams tabs through the console's route table, against the strict fake API.
export const renderAt = (
  path: string,
  ownRole: string | null = 'administrator',
  adjust: (data: FakeData) => void = () => undefined,
) => {
  const data = fleetAccessWorld(ownRole);
  adjust(data);
  const api = createFakeApi(data);
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, helpLinks: {} } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  // A membership made by username, as the role query reads it back.
  api.shapeCreated('user_application_membership', (body) => ({
    ...body,
    user: { __id: 99 },
    is_member_of__application: { __id: body.is_member_of__application },
    application_membership_role: [{ name: 'developer' }],
  }));
  api.shapeCreated('invitee__is_invited_to__application', (body) => ({
    ...body,
    is_invited_to__application: { __id: body.is_invited_to__application },
    invitee: [{ email: body.invitee }],
    application_membership_role: [{ name: 'developer' }],
  }));
  api.shapeCreated('team_application_access', (body) => ({
    ...body,
    grants_access_to__application: { __id: body.grants_access_to__application },
    team: [{ id: body.team, name: 'field', team_membership: [] }],
    application_membership_role: [{ name: 'developer' }],
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
