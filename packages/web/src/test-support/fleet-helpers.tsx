import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { ClientProvider } from '../api/client.js';
import type { FakeRow } from './fake-odata.js';
import type { FleetDetail } from '../fleet/api-fleet-detail.js';

export const renderWithClient = (client: FlotillaClient, ui: ReactNode, path = '/') =>
  render(
    <ClientProvider client={client}>
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </ClientProvider>,
  );

// The application as the application page's query answers it (the page's prop).
export const fleetFixture = (overrides: Partial<FleetDetail> = {}): FleetDetail => ({
  id: 12,
  app_name: 'garden-sensors',
  slug: 'acme/garden-sensors',
  is_of__class: 'fleet',
  created_at: '2024-05-01T10:00:00.000Z',
  is_host: false,
  is_public: false,
  should_track_latest_release: true,
  is_stored_at__repository_url: null,
  is_accessible_by_support_until__date: null,
  organization: [{ id: 3, name: 'Acme', handle: 'acme' }],
  is_for__device_type: [
    {
      id: 30,
      slug: 'raspberrypi4-64',
      name: 'Raspberry Pi 4 (64bit)',
      is_of__cpu_architecture: [{ id: 4, slug: 'aarch64' }],
    },
  ],
  application_type: [
    {
      id: 1,
      slug: 'microservices',
      name: 'Microservices',
      description: 'Several containers per device.',
      is_legacy: false,
      requires_payment: false,
      supports_multicontainer: true,
    },
  ],
  should_be_running__release: [],
  owns__device: 2,
  ...overrides,
});

// The application as a fixture row of the fake API: its devices and releases as navigations, and
// directly accessible by the signed-in user.
export const fleetRow = (
  detail: FleetDetail,
  navigations: { owns__device?: FakeRow[]; owns__release?: FakeRow[] } = {},
): FakeRow => ({
  ...detail,
  owns__device: navigations.owns__device ?? [],
  owns__release: navigations.owns__release ?? [],
  is_directly_accessible_by__user: [{ id: 7 }],
});
