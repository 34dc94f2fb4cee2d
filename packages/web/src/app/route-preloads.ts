// The first screens people land on, and the route modules each needs beyond the entry. The build
// (scripts/route-preloads-plugin.ts) turns this table into dist/route-preloads.json: for each
// pattern, every chunk those modules load. The server lists them as modulepreload links in the
// index.html it answers for a matching URL, so a cold load fetches the screen's code together
// with the entry instead of after the entry has run (the fleet list's cold load).
// A missing module fails the build; route-preloads.test.ts checks each example against the router.

// Patterns are matched against the URL path (no query); modules are relative to packages/web.
export type RoutePreload = { pattern: string; example: string; modules: readonly string[] };

const shell = 'src/features/shell/AppLayout.tsx';
const fleetLayout = 'src/features/fleets/fleet/FleetLayout.tsx';

export const routePreloads: readonly RoutePreload[] = [
  {
    pattern: '^/((fleets|apps|blocks)/?)?$|^/orgs/[^/]+/(fleets|apps|blocks)/?$',
    example: '/fleets',
    modules: [shell, 'src/features/fleets/FleetsPage.tsx'],
  },
  {
    pattern: '^/(fleets|apps|blocks)/[^/]+(/summary)?/?$',
    example: '/fleets/12',
    modules: [shell, fleetLayout, 'src/features/fleets/fleet/FleetSummaryPage.tsx'],
  },
  {
    pattern: '^/fleets/[^/]+/devices/?$',
    example: '/fleets/12/devices',
    modules: [shell, fleetLayout, 'src/features/devices/FleetDevicesPage.tsx'],
  },
  {
    pattern: '^/devices/[^/]+(/summary)?/?$',
    example: '/devices/0123456789abcdef0123456789abcdef',
    modules: [shell, 'src/features/devices/DevicePage.tsx'],
  },
  {
    pattern: '^/orgs/?$',
    example: '/orgs',
    modules: [shell, 'src/features/organizations/OrganizationsPage.tsx'],
  },
  { pattern: '^/login/?$', example: '/login', modules: ['src/features/auth/LoginPage.tsx'] },
  { pattern: '^/signup/?$', example: '/signup', modules: ['src/features/auth/SignupPage.tsx'] },
];
