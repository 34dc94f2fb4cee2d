import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { Session } from '@flotilla/sdk/session-token';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { ClientProvider } from '../../../app/client.js';
import type { ApplicationDetail } from './application-detail.js';

type GetParams = { resource: string; id?: number; options?: { $count?: unknown } };

// A client whose pine answers fixed rows per resource (counts answer 0 unless given), enough
// for the application pages; everything else of the SDK is absent.
export const fakeClient = (
  rows: Record<string, unknown>,
  counts: Record<string, number> = {},
  session: Partial<Session> = {},
) => {
  const pine = {
    get: vi.fn(async (params: GetParams) => {
      if (params.options?.$count !== undefined) return counts[params.resource] ?? 0;
      const answer = rows[params.resource] ?? [];
      // By id: the row with that id, or undefined as pine answers for an invisible row.
      if (params.id === undefined || !Array.isArray(answer)) return answer;
      return (answer as { id?: number }[]).find((row) => row.id === params.id);
    }),
    post: vi.fn(async () => ({ id: 1 })),
    patch: vi.fn(async () => ''),
    delete: vi.fn(async () => ''),
  };
  const fullSession: Session = {
    userId: 7,
    authTime: 0,
    issuedAt: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    permissions: [],
    ...session,
  };
  const auth = {
    subscribe: () => () => undefined,
    getToken: () => 'test-token',
    session: () => fullSession,
  };
  // Only the parts the pages use exist; the rest of the client type is not needed here.
  const client = { pine, auth } as unknown as FlotillaClient;
  return { client, pine };
};

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

export const fleetFixture = (overrides: Partial<ApplicationDetail> = {}): ApplicationDetail => ({
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
