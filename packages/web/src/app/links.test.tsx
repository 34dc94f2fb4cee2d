// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceDetail } from '../features/devices/test-fixtures.js';
import { applicationRow, fleetFixture } from '../features/fleets/application/test-helpers.js';
import { releaseRow } from '../features/releases/test-fixtures.js';
import { createFakeApi, type FakeSession } from '../test-support/fake-api.js';
import { organizationMember, testUserId } from '../test-support/fixtures.js';
import { ToastProvider } from '../ui/toasts.js';
import { ClientProvider } from './client.js';
import { consoleRoutes } from './router.js';
import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';

// The console's route table, without loaders (tests seed their own data).
const routes = consoleRoutes();

// Every in-app link the console's screens show leads to a route of the route table (not to the
// catch-all "not found" route).

afterEach(cleanup);

const release = releaseRow(5, { status: 'running' });

const world = () => ({
  application: [
    { ...applicationRow(fleetFixture(), { owns__release: [release] }), actor: { __id: 70 } },
  ],
  release: [release],
  device: [deviceDetail()],
  organization_membership: [organizationMember('administrator')],
  organization: [
    {
      id: 3,
      name: 'Acme',
      organization_membership: [
        {
          id: 1,
          user: { __id: testUserId },
          organization_membership_role: [{ name: 'administrator' }],
        },
      ],
      application: [{ id: 12, app_name: 'garden-sensors' }],
    },
  ],
  application_type: [],
  device_type: [],
});

const renderAt = (path: string, session: FakeSession | null) => {
  const api = createFakeApi(world(), session);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: { docs: '/docs/agent', gettingStarted: null } },
  }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.on('GET', '/config/vars', () => ({ status: 200, body: configVarsAnswer('raspberrypi4-64') }));
  api.on('GET', '/docs/v1/getting-started', () => ({
    status: 200,
    text: '# Flotilla\n\nSee [the architecture](docs/ARCHITECTURE.md).',
  }));
  // The device page's logs stream (open and quiet) and its last health checks (none yet).
  const uuid = deviceDetail().uuid;
  api.on('GET', `/device/v2/${uuid}/logs`, () => ({
    status: 200,
    stream: new ReadableStream<Uint8Array>(),
  }));
  api.on('GET', `/actions/v1/${uuid}/checks`, () => ({ status: 404, body: { message: 'none' } }));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
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
};

// Paths of the in-app links on the page now, with the ones that match no route.
const deadLinks = (): string[] =>
  [...document.querySelectorAll('a[href]')]
    .map((anchor) => anchor.getAttribute('href') ?? '')
    .filter((href) => href.startsWith('/') && !href.startsWith('//'))
    .map((href) => new URL(href, 'http://console.test').pathname)
    .filter((pathname) => {
      const matched = matchRoutes(routes, pathname);
      return matched === null || matched.at(-1)?.route.path === '*';
    });

const screens: [path: string, session: FakeSession | null, ready: () => Promise<unknown>][] = [
  ['/login', null, () => screen.findByRole('button', { name: 'Log in' })],
  ['/signup', null, () => screen.findByText('Create your account')],
  ['/fleets', {}, () => screen.findByRole('link', { name: /garden-sensors/ })],
  ['/fleets/12', {}, () => screen.findByText('A build is in progress.')],
  ['/fleets/12/settings', {}, () => screen.findByRole('region', { name: 'Danger zone' })],
  ['/fleets/12/devices', {}, () => screen.findByRole('link', { name: 'brave-otter' })],
  [
    `/devices/${deviceDetail().uuid}`,
    {},
    () => screen.findByRole('region', { name: 'Device summary' }),
  ],
  ['/fleets/12/envvars', {}, () => screen.findByRole('table', { name: 'Environment variables' })],
  ['/fleets/12/config', {}, () => screen.findByRole('table', { name: 'Custom configuration' })],
  ['/fleets/12/api-keys', {}, () => screen.findByRole('table', { name: 'Provisioning keys' })],
  [
    `/devices/${deviceDetail().uuid}/envvars`,
    {},
    () => screen.findByRole('table', { name: 'Device environment variables' }),
  ],
  [
    `/devices/${deviceDetail().uuid}/config`,
    {},
    () => screen.findByRole('table', { name: 'Device configuration' }),
  ],
  [
    `/devices/${deviceDetail().uuid}/diagnostics`,
    {},
    () => screen.findByRole('button', { name: 'Run checks' }),
  ],
  ['/fleets/12/releases', {}, () => screen.findByRole('table', { name: 'Releases' })],
  ['/fleets/12/releases/5', {}, () => screen.findByRole('region', { name: 'Release summary' })],
  [
    '/fleets/12/releases/5/settings',
    {},
    () => screen.findByRole('region', { name: 'Release settings' }),
  ],
  ['/docs/getting-started', {}, () => screen.findByRole('link', { name: 'the architecture' })],
  ['/no-such-page', {}, () => screen.findByText(/not found/i)],
];

describe('in-app links', { timeout: 30_000 }, () => {
  it.each(screens)('%s links only to routes of the route table', async (path, session, ready) => {
    renderAt(path, session);
    await ready();
    expect(deadLinks()).toEqual([]);
  });

  it('the shell menus link only to routes of the route table', async () => {
    const user = userEvent.setup();
    renderAt('/fleets', {});
    await screen.findByRole('navigation', { name: 'Main navigation' });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').length).toBeGreaterThan(
      0,
    );
    expect(deadLinks()).toEqual([]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: /Help and status/ }));
    await screen.findByRole('menuitem', { name: 'Documentation' });
    expect(deadLinks()).toEqual([]);
  });

  it('finds a dead link', async () => {
    // Guards the check itself: the not-found page of an unknown path is one.
    expect(matchRoutes(routes, '/fleets/12/no-such-tab/5')?.at(-1)?.route.path).toBe('*');
  });
});
