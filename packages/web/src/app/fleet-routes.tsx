import type { RouteObject } from 'react-router';
import type { LazyPage } from './router.js';
import { rolloutRoutes } from './rollout-routes.js';

// One fleet (also under /apps and /blocks; the layout rewrites a wrong class prefix): summary,
// settings, releases, members and teams; its devices tab; its variables, configuration, API keys,
// rollouts and history.
export const fleetRoutes = (lazyPage: LazyPage): RouteObject[] => [
  ...['/fleets', '/apps', '/blocks'].map((prefix): RouteObject => {
    const summary = lazyPage(
      () => import('../features/fleets/fleet/FleetSummaryPage.js'),
      'FleetSummaryPage',
    );
    const releaseSummary = lazyPage(
      () => import('../features/releases/ReleaseSummaryPage.js'),
      'ReleaseSummaryPage',
    );
    return {
      path: `${prefix}/:fleetId`,
      lazy: lazyPage(() => import('../features/fleets/fleet/FleetLayout.js'), 'FleetLayout'),
      children: [
        { index: true, lazy: summary },
        { path: 'summary', lazy: summary },
        {
          path: 'settings',
          lazy: lazyPage(
            () => import('../features/fleets/fleet/FleetSettingsPage.js'),
            'FleetSettingsPage',
          ),
        },
        // Releases: the list and one release's summary and settings.
        {
          path: 'releases',
          lazy: lazyPage(() => import('../features/releases/ReleasesPage.js'), 'ReleasesPage'),
        },
        {
          path: 'releases/:releaseId',
          lazy: lazyPage(() => import('../features/releases/ReleaseLayout.js'), 'ReleaseLayout'),
          children: [
            { index: true, lazy: releaseSummary },
            { path: 'summary', lazy: releaseSummary },
            {
              path: 'settings',
              lazy: lazyPage(
                () => import('../features/releases/ReleaseSettingsPage.js'),
                'ReleaseSettingsPage',
              ),
            },
          ],
        },
        // Members and teams of the fleet.
        {
          path: 'members',
          lazy: lazyPage(
            () => import('../features/fleet-access/FleetMembersPage.js'),
            'FleetMembersPage',
          ),
        },
        {
          path: 'teams',
          lazy: lazyPage(
            () => import('../features/fleet-access/FleetTeamsPage.js'),
            'FleetTeamsPage',
          ),
        },
      ],
    };
  }),
  // Devices: the fleet's devices tab and the device page.
  {
    path: '/fleets/:fleetId/devices',
    lazy: lazyPage(() => import('../features/fleets/fleet/FleetLayout.js'), 'FleetLayout'),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('../features/devices/FleetDevicesPage.js'), 'FleetDevicesPage'),
      },
    ],
  },
  // Variables, configuration, API keys and history of a fleet.
  {
    path: '/fleets/:fleetId',
    lazy: lazyPage(() => import('../features/fleets/fleet/FleetLayout.js'), 'FleetLayout'),
    children: [
      {
        path: 'envvars',
        lazy: lazyPage(
          () => import('../features/variables/FleetEnvVarsPage.js'),
          'FleetEnvVarsPage',
        ),
      },
      {
        path: 'config',
        lazy: lazyPage(() => import('../features/variables/FleetConfigPage.js'), 'FleetConfigPage'),
      },
      {
        path: 'api-keys',
        lazy: lazyPage(
          () => import('../features/api-keys/FleetApiKeysPage.js'),
          'FleetApiKeysPage',
        ),
      },
      ...rolloutRoutes(lazyPage),
      {
        path: 'history',
        lazy: lazyPage(
          () => import('../features/audit-log/FleetHistoryPage.js'),
          'FleetHistoryPage',
        ),
      },
    ],
  },
];
