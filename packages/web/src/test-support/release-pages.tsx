import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { ClientProvider } from '../api/client.js';
import type { FakeApi } from './fake-api.js';
import { ToastProvider } from '../ui/toasts.js';
import type { FleetDetail } from '../fleet/api-fleet-detail.js';
import { fleetFixture } from './fleet-helpers.js';
import { ReleaseLayout } from '../features/releases/ReleaseLayout.js';
import { ReleaseSettingsPage } from '../features/releases/ReleaseSettingsPage.js';
import { ReleasesPage } from '../features/releases/ReleasesPage.js';
import { ReleaseSummaryPage } from '../features/releases/ReleaseSummaryPage.js';

// The release pages inside the fleet page's outlet context, as the console's route table nests
// them (the fleet page itself is a stub).
export const renderReleasePages = (
  api: FakeApi,
  path: string,
  fleet: FleetDetail = fleetFixture(),
) => {
  const router = createMemoryRouter(
    [
      // Where a user without the permission a page needs is sent.
      { path: '/', element: <p>Home</p> },
      {
        path: '/fleets/:fleetId',
        element: <Outlet context={{ fleet }} />,
        children: [
          { index: true, element: <p>Fleet summary</p> },
          { path: 'releases', element: <ReleasesPage /> },
          {
            path: 'releases/:releaseId',
            element: <ReleaseLayout />,
            children: [
              { index: true, element: <ReleaseSummaryPage /> },
              { path: 'settings', element: <ReleaseSettingsPage /> },
            ],
          },
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
