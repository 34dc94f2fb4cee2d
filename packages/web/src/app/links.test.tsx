// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { answerDevicePageFeeds } from '../test-support/device-page-feeds.js';
import { deviceDetail } from '../test-support/device-fixtures.js';
import { fleetRow, fleetFixture } from '../test-support/fleet-helpers.js';
import { releaseRow } from '../test-support/release-fixtures.js';
import { fleetAccessWorld } from '../test-support/fleet-access-fixtures.js';
import { invitationToken } from '../test-support/invitation-tokens.js';
import { acmeId, organizationWorld } from '../test-support/organization-fixtures.js';
import { createFakeApi, type FakeSession } from '../test-support/fake-api.js';
import { renderConsoleAt } from '../test-support/render-console.js';
import type { FakeData } from '../test-support/fake-odata.js';
import { userProfileRow } from '../test-support/profile-fixtures.js';
import { organizationMember, testUserId } from '../test-support/fixtures.js';
import { consoleRoutes } from './router.js';
import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';

// The console's route table, without loaders (tests seed their own data).
const routes = consoleRoutes();

// Every in-app link the console's screens show leads to a route of the route table (not to the
// catch-all "not found" route).

afterEach(cleanup);

const release = releaseRow(5, { status: 'running' });

const world = () => ({
  application: [{ ...fleetRow(fleetFixture(), { owns__release: [release] }), actor: { __id: 70 } }],
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
  user_profile: [userProfileRow()],
  user__has__public_key: [],
  oauth_application: [
    {
      id: 4,
      client_id: 'abc123',
      name: 'Grafana',
      description: null,
      redirect_uri: 'https://g.test/',
      // Already authorized: the consent page links to Preferences → Access tokens.
      oauth_application_authorization: [{ id: 9, created_at: '2026-11-02T10:00:00.000Z' }],
    },
  ],
  oauth_application_authorization: [],
});

const renderAt = (path: string, session: FakeSession | null, data: FakeData = world()) => {
  const api = createFakeApi(data, session);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, helpLinks: { docs: '/docs/agent', gettingStarted: null } },
  }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  api.on('GET', '/config/vars', () => ({ status: 200, body: configVarsAnswer('raspberrypi4-64') }));
  api.on('GET', '/admin/v1/mail', () => ({
    status: 200,
    body: { transport: 'outbox', total: 0, messages: [] },
  }));
  api.on('GET', '/admin/v1/users', () => ({
    status: 200,
    body: {
      total: 1,
      users: [
        {
          id: 8,
          username: 'ann',
          email: 'ann@x.test',
          createdAt: '2026-11-01T10:00:00.000Z',
          platformRoles: [],
        },
      ],
    },
  }));
  api.on('GET', '/admin/v1/oauth-applications', () => ({ status: 200, body: [] }));
  api.on('GET', '/admin/v1/host-os/releases', () => ({ status: 200, body: [] }));
  api.on('GET', '/admin/v1/host-os/images', () => ({ status: 200, body: [] }));
  // The support drawer: private support for the user's organization, on the built-in desk.
  api.on('GET', '/billing/v1/account/3/can-access-support', () => ({ status: 200, body: true }));
  api.on('GET', '/support/v1/desk', () => ({ status: 200, body: { kind: 'built-in' } }));
  api.on('GET', '/docs/v1/getting-started', () => ({
    status: 200,
    text: '# Flotilla\n\nSee [the architecture](docs/ARCHITECTURE.md).',
  }));
  // The device page's logs stream and metric history, and its last health checks (none yet).
  const uuid = deviceDetail().uuid;
  answerDevicePageFeeds(api, uuid);
  api.on('GET', `/actions/v1/${uuid}/checks`, () => ({ status: 200, body: null }));
  // A fresh table per router: the router marks a route's lazy parts as loaded in the table.
  renderConsoleAt(api.client, path);
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
  ['/password-reset', null, () => screen.findByRole('button', { name: 'Send reset link' })],
  ['/password-reset/success', null, () => screen.findByText('Check your e-mail')],
  ['/user/reset-password/code1', null, () => screen.findByText('Choose a new password')],
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
    `/devices/${deviceDetail().uuid}/actions`,
    {},
    () => screen.findByRole('region', { name: 'Reboot' }),
  ],
  [
    `/devices/${deviceDetail().uuid}/settings`,
    {},
    () => screen.findByRole('region', { name: 'Device settings' }),
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
  [
    `/organization/invitation/${invitationToken()}`,
    null,
    () => screen.findByRole('link', { name: 'Sign up to accept' }),
  ],
  ['/admin/outbox', { permissions: ['admin.home'] }, () => screen.findByText('No mail yet.')],
  ['/admin', { permissions: ['admin.home'] }, () => screen.findByRole('table', { name: 'Users' })],
  [
    '/admin/oauth',
    { permissions: ['admin.home'] },
    () => screen.findByText('No OAuth applications yet.'),
  ],
  [
    '/admin/os-catalogue',
    { permissions: ['admin.home'] },
    () => screen.findByText('No OS releases yet — add one or import a catalogue file.'),
  ],
  ['/login/oauth/abc123', {}, () => screen.findByRole('button', { name: 'Allow again' })],
  [
    '/login/cli/http%253A%252F%252F127.0.0.1%253A5000%252Fauth',
    {},
    () => screen.findByRole('button', { name: 'Authorize' }),
  ],
  ['/preferences', {}, () => screen.findByRole('button', { name: 'Change password' })],
  ['/preferences/profile', {}, () => screen.findByRole('button', { name: 'Save' })],
  ['/preferences/sshkeys', {}, () => screen.findByRole('table', { name: 'SSH keys' })],
  ['/preferences/access-tokens', {}, () => screen.findByRole('table', { name: 'API keys' })],
  [
    '/preferences/2fa',
    {},
    () => screen.findByRole('button', { name: 'Set up two-factor authentication' }),
  ],
  [
    '/login/two-factor',
    { twoFactorRequired: true },
    () => screen.findByText('Use a recovery code'),
  ],
  ['/no-such-page', {}, () => screen.findByText(/not found/i)],
];

// The first import of a screen's chunk is transformed on demand: on a busy machine that alone can
// exceed the default wait.
const firstLoad = { timeout: 15_000 };

const organizationScreens: [path: string, ready: () => Promise<unknown>][] = [
  ['/orgs', () => screen.findByRole('link', { name: 'Acme' }, firstLoad)],
  [`/orgs/${acmeId}`, () => screen.findByText('Logo', undefined, firstLoad)],
  [`/orgs/${acmeId}/members`, () => screen.findByText('carol@example.com', undefined, firstLoad)],
  [`/orgs/${acmeId}/members/2`, () => screen.findByRole('link', { name: 'ops' }, firstLoad)],
  [
    `/orgs/${acmeId}/members/2/fleets`,
    () => screen.findByRole('tab', { name: 'Fleets', selected: true }, firstLoad),
  ],
  [`/orgs/${acmeId}/teams`, () => screen.findByRole('link', { name: 'ops' }, firstLoad)],
  [`/orgs/${acmeId}/teams/20`, () => screen.findByRole('link', { name: 'bob' }, firstLoad)],
  [
    `/orgs/${acmeId}/teams/20/fleets`,
    () => screen.findByRole('link', { name: 'garden-sensors' }, firstLoad),
  ],
];

// A fleet's members and teams (their own fixture world).
const fleetAccessScreens: [path: string, ready: () => Promise<unknown>][] = [
  ['/fleets/12/members', () => screen.findByRole('link', { name: 'bob' }, firstLoad)],
  ['/fleets/12/teams', () => screen.findByRole('link', { name: 'ops' }, firstLoad)],
];

describe('in-app links', { timeout: 30_000 }, () => {
  it.each(screens)('%s links only to routes of the route table', async (path, session, ready) => {
    renderAt(path, session);
    await ready();
    expect(deadLinks()).toEqual([]);
  });

  // The organization screens (their own fixture world).
  it.each(organizationScreens)(
    '%s links only to routes of the route table',
    async (path, ready) => {
      renderAt(path, {}, organizationWorld());
      await ready();
      expect(deadLinks()).toEqual([]);
    },
  );

  it.each(fleetAccessScreens)('%s links only to routes of the route table', async (path, ready) => {
    renderAt(path, {}, fleetAccessWorld());
    await ready();
    expect(deadLinks()).toEqual([]);
  });

  it('the shell menus link only to routes of the route table', async () => {
    const user = userEvent.setup();
    // A platform administrator: the account menu shows the admin pages too.
    renderAt('/fleets', { permissions: ['admin.home'] });
    await screen.findByRole('navigation', { name: 'Main navigation' });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').length).toBeGreaterThan(
      0,
    );
    expect(screen.getByRole('menuitem', { name: 'Preferences' }).getAttribute('href')).toBe(
      '/preferences',
    );
    expect(screen.getByRole('menuitem', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    expect(deadLinks()).toEqual([]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: /Help and status/ }));
    await screen.findByRole('menuitem', { name: 'Documentation' });
    await screen.findByRole('link', { name: 'Support tickets' });
    expect(deadLinks()).toEqual([]);
    // Two menus and the drawer's lazily loaded support part: more than one screen's time on a
    // busy machine.
  }, 60_000);

  it('offers the admin area only to platform administrators', async () => {
    const user = userEvent.setup();
    renderAt('/fleets', {});
    await screen.findByRole('navigation', { name: 'Main navigation' });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await screen.findByRole('menuitem', { name: 'Preferences' });
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
  });

  it('has a route for every section of a device and of a fleet', () => {
    const device = `/devices/${deviceDetail().uuid}`;
    const sections = ['', '/summary', '/actions', '/settings', '/location', '/config', '/envvars'];
    const paths = [
      ...[...sections, '/diagnostics'].map((section) => `${device}${section}`),
      ...['', '/summary', '/devices', '/envvars', '/config', '/api-keys', '/settings'].map(
        (section) => `/fleets/12${section}`,
      ),
      '/fleets/12/releases/5/settings',
    ];
    expect(
      paths.filter((path) => {
        const matched = matchRoutes(routes, path);
        return matched === null || matched.at(-1)?.route.path === '*';
      }),
    ).toEqual([]);
  });

  it('finds a dead link', async () => {
    // Guards the check itself: the not-found page of an unknown path is one.
    expect(matchRoutes(routes, '/fleets/12/no-such-tab/5')?.at(-1)?.route.path).toBe('*');
  });
});
