import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { ClientProvider } from '../api/client.js';
import type { FakeApi } from './fake-api.js';
import type { FakeRow } from './fake-odata.js';
import { ToastProvider } from '../ui/toasts.js';
import type { FleetDetail } from '../fleet/api-fleet-detail.js';
import { fleetFixture } from './fleet-helpers.js';

// Fixtures and a data router (the leave guard needs one) for the variables screens' tests.

export const release = 5;

// The fleet's services: main and proxy in the current release, legacy in none.
export const serviceRows = (): FakeRow[] => [
  service(4, 'main', true),
  service(6, 'proxy', true),
  service(8, 'legacy', false),
];

const service = (id: number, name: string, inRelease: boolean): FakeRow => ({
  id,
  service_name: name,
  application: { __id: 12 },
  is_built_by__image: [
    {
      id: id * 10,
      release_image: [{ id: id * 100, is_part_of__release: { __id: inRelease ? release : 1 } }],
    },
  ],
});

export const fleetVariable = (id: number, name: string, value: string): FakeRow => ({
  id,
  name,
  value,
  application: { __id: 12 },
});

export const serviceVariable = (
  id: number,
  serviceId: number,
  name: string,
  value: string,
): FakeRow => ({
  id,
  name,
  value,
  service: [{ id: serviceId, application: { __id: 12 } }],
});

// GET /config/vars answers the server's own rules.
export const answerConfigVars = (api: FakeApi): void =>
  api.on('GET', '/config/vars', () => ({ status: 200, body: configVarsAnswer('raspberrypi4-64') }));

export const fleetWithRelease = (): FleetDetail =>
  fleetFixture({
    should_be_running__release: [
      {
        id: release,
        commit: 'abcdef1234567',
        raw_version: '1.2.0',
        status: 'success',
        created_at: '2025-01-01T00:00:00Z',
      },
    ],
  });

// Renders `page` at `path` inside the fleet page's outlet context, with a link away
// (to /elsewhere) for the leave guard's tests.
export const renderPage = (
  api: FakeApi,
  path: string,
  pattern: string,
  page: ReactNode,
  fleet: FleetDetail = fleetWithRelease(),
) => {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Link to="/elsewhere">Leave the page</Link>
            <Outlet context={{ fleet }} />
          </>
        ),
        children: [
          { path: pattern, element: page },
          { path: '/elsewhere', element: <p>Somewhere else</p> },
          // Where a user without the permission a page needs is sent.
          { path: '/', element: <p>Home</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
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
  return router;
};

// Replaces a field's text by pasting (typing key by key is slow on a busy machine).
export const fill = async (user: UserEvent, field: HTMLElement, text: string): Promise<void> => {
  await user.clear(field);
  if (text === '') return;
  await user.click(field);
  await user.paste(text);
};

// MUI keeps a closing dialog (and the page behind it hidden) until its transition ends.
export const dialogsClosed = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
