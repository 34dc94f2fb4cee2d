import { lazy } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { DeviceHeaderProvider } from '../device/device-header-slot.js';
import type { DeviceDetail } from '../device/device-rows.js';
import type { LazyPage } from './router.js';

// Every device sub-page shows the device page's header with its actions; its code loads with
// the first device page opened, not with the shell.
const DeviceSectionHeader = lazy(async () => ({
  default: (await import('../features/devices/DeviceSectionHeader.js')).DeviceSectionHeader,
}));
const sectionHeader = (detail: DeviceDetail) => <DeviceSectionHeader detail={detail} />;

// The device page and its sections: summary (also /summary, which balena-cli prints), actions,
// settings, location, variables, configuration, diagnostics and history.
export const deviceRoutes = (lazyPage: LazyPage): RouteObject[] => {
  const summary = lazyPage(() => import('../features/devices/DevicePage.js'), 'DevicePage');
  const sections: RouteObject[] = [
    {
      path: '/devices/:uuid/actions',
      lazy: lazyPage(() => import('../features/devices/DeviceActionsPage.js'), 'DeviceActionsPage'),
    },
    {
      path: '/devices/:uuid/settings',
      lazy: lazyPage(
        () => import('../features/devices/DeviceSettingsPage.js'),
        'DeviceSettingsPage',
      ),
    },
    {
      path: '/devices/:uuid/location',
      lazy: lazyPage(
        () => import('../features/location/DeviceLocationPage.js'),
        'DeviceLocationPage',
      ),
    },
    {
      path: '/devices/:uuid/envvars',
      lazy: lazyPage(
        () => import('../features/variables/DeviceEnvVarsPage.js'),
        'DeviceEnvVarsPage',
      ),
    },
    {
      path: '/devices/:uuid/config',
      lazy: lazyPage(() => import('../features/variables/DeviceConfigPage.js'), 'DeviceConfigPage'),
    },
    {
      path: '/devices/:uuid/diagnostics',
      lazy: lazyPage(() => import('../features/diagnostics/DiagnosticsPage.js'), 'DiagnosticsPage'),
    },
    {
      path: '/devices/:uuid/history',
      lazy: lazyPage(
        () => import('../features/audit-log/DeviceHistoryPage.js'),
        'DeviceHistoryPage',
      ),
    },
  ];
  return [
    { path: '/devices/:uuid', lazy: summary },
    { path: '/devices/:uuid/summary', lazy: summary },
    {
      element: (
        <DeviceHeaderProvider header={sectionHeader}>
          <Outlet />
        </DeviceHeaderProvider>
      ),
      children: sections,
    },
  ];
};
