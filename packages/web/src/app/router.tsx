import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorScreen } from '../features/errors/ErrorScreen.js';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';
import { RequireGuest, RequireSession } from '../features/session/guards.js';

// Screens are code-split per route: the initial bundle holds only the shell and the guards.
const lazyPage =
  <Name extends string>(load: () => Promise<Record<Name, React.ComponentType>>, name: Name) =>
  async () => {
    const module = await load();
    return { Component: module[name] };
  };

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorScreen />,
    children: [
      {
        element: (
          <RequireGuest>
            <Outlet />
          </RequireGuest>
        ),
        children: [
          {
            path: '/login',
            lazy: lazyPage(() => import('../features/auth/LoginPage.js'), 'LoginPage'),
          },
          {
            path: '/signup',
            lazy: lazyPage(() => import('../features/auth/SignupPage.js'), 'SignupPage'),
          },
        ],
      },
      {
        // The shell is a chunk of its own: a guest's first load (login) does not need it.
        element: (
          <RequireSession>
            <Outlet />
          </RequireSession>
        ),
        children: [
          {
            lazy: lazyPage(() => import('../features/shell/AppLayout.js'), 'AppLayout'),
            children: [
              { index: true, element: <Navigate to="/fleets" replace /> },
              {
                path: '/fleets',
                lazy: lazyPage(
                  () => import('../features/fleets/ApplicationsPage.js'),
                  'FleetsPage',
                ),
              },
              {
                path: '/apps',
                lazy: lazyPage(() => import('../features/fleets/ApplicationsPage.js'), 'AppsPage'),
              },
              {
                path: '/blocks',
                lazy: lazyPage(
                  () => import('../features/fleets/ApplicationsPage.js'),
                  'BlocksPage',
                ),
              },
              // One application (seed 001 section 2); the layout rewrites a wrong class prefix.
              {
                path: '/orgs/:organizationId/fleets',
                lazy: lazyPage(
                  () => import('../features/fleets/ApplicationsPage.js'),
                  'FleetsPage',
                ),
              },
              {
                path: '/orgs/:organizationId/apps',
                lazy: lazyPage(() => import('../features/fleets/ApplicationsPage.js'), 'AppsPage'),
              },
              {
                path: '/orgs/:organizationId/blocks',
                lazy: lazyPage(
                  () => import('../features/fleets/ApplicationsPage.js'),
                  'BlocksPage',
                ),
              },
              ...['/fleets', '/apps', '/blocks'].map((prefix): RouteObject => {
                const summary = lazyPage(
                  () => import('../features/fleets/application/ApplicationSummaryPage.js'),
                  'ApplicationSummaryPage',
                );
                return {
                  path: `${prefix}/:applicationId`,
                  lazy: lazyPage(
                    () => import('../features/fleets/application/ApplicationLayout.js'),
                    'ApplicationLayout',
                  ),
                  children: [
                    { index: true, lazy: summary },
                    { path: 'summary', lazy: summary },
                    {
                      path: 'settings',
                      lazy: lazyPage(
                        () => import('../features/fleets/application/ApplicationSettingsPage.js'),
                        'ApplicationSettingsPage',
                      ),
                    },
                  ],
                };
              }),
              // Devices (issue 4): the fleet's devices tab and the device page.
              {
                path: '/fleets/:applicationId/devices',
                lazy: lazyPage(
                  () => import('../features/fleets/application/ApplicationLayout.js'),
                  'ApplicationLayout',
                ),
                children: [
                  {
                    index: true,
                    lazy: lazyPage(
                      () => import('../features/devices/FleetDevicesPage.js'),
                      'FleetDevicesPage',
                    ),
                  },
                ],
              },
              {
                path: '/devices/:uuid',
                lazy: lazyPage(() => import('../features/devices/DevicePage.js'), 'DevicePage'),
              },
              {
                path: '/docs/:page',
                lazy: lazyPage(() => import('../features/docs/DocsPage.js'), 'DocsPage'),
              },
            ],
          },
        ],
      },
      { path: '/404', element: <NotFoundPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createConsoleRouter = () => createBrowserRouter(routes);
