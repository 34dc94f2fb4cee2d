import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import userEvent from '@testing-library/user-event';
import { Outlet, Route, Routes } from 'react-router';
import { createFakeApi } from './fake-api.js';
import type { FakeData, FakeRow } from './fake-odata.js';
import { fleetMember } from './fixtures.js';
import { ToastProvider } from '../ui/toasts.js';
import { fleetFixture, renderWithClient } from './fleet-helpers.js';
import { DeviceActionsPage } from '../features/devices/DeviceActionsPage.js';
import { DevicePage } from '../features/devices/DevicePage.js';
import { FleetDevicesPage } from '../features/devices/FleetDevicesPage.js';
import type { DeviceDetail, DeviceListRow } from '../device/device-rows.js';
import { answerDevicePageFeeds } from './device-page-feeds.js';

// The OS and supervisor update tests' world on the strict fake API: the host OS catalogue, the
// writes an update sends, the device page and the devices table rendered with it.

const catalogueRelease = (id: number, version: string, extra: Partial<FakeRow> = {}): FakeRow => ({
  id,
  raw_version: version,
  variant: 'prod',
  phase: 'current',
  status: 'success',
  is_final: true,
  is_invalidated: false,
  known_issue_list: null,
  note: `* Notes of ${version}`,
  release_tag: [],
  ...extra,
});

// What the move targets' query reads of every application; no user reaches these directly.
const catalogueFleet = {
  app_name: 'catalogue',
  organization: { __id: 99 },
  is_of__class: 'fleet',
  is_directly_accessible_by__user: [],
};

// A write of the release to run is read back as the expanded release, as the server answers.
const shapeHostWrites = (api: ReturnType<typeof createFakeApi>): void => {
  const releaseRef = (id: unknown) =>
    typeof id === 'number' ? [{ id, raw_version: `release ${id}`, phase: null }] : [];
  api.shapeUpdated('device', (row, body) => ({
    ...row,
    ...body,
    ...('should_be_operated_by__release' in body
      ? { should_be_operated_by__release: releaseRef(body.should_be_operated_by__release) }
      : {}),
    ...('should_be_managed_by__release' in body
      ? { should_be_managed_by__release: releaseRef(body.should_be_managed_by__release) }
      : {}),
  }));
};

// The host application of the Raspberry Pi 4 and the aarch64 supervisor application.
const catalogue: FakeData = {
  application: [
    {
      ...catalogueFleet,
      id: 900,
      slug: 'balena_os/raspberrypi4-64',
      is_host: true,
      is_for__device_type: [{ slug: 'raspberrypi4-64' }],
      owns__release: [
        catalogueRelease(901, '5.3.1'),
        catalogueRelease(902, '6.0.13', { phase: 'sunset' }),
        catalogueRelease(903, '6.1.0'),
        catalogueRelease(904, '6.2.0', { is_invalidated: true }),
      ],
    },
    {
      ...catalogueFleet,
      id: 910,
      slug: 'balena_os/aarch64-supervisor',
      is_host: false,
      is_for__device_type: [{ slug: 'generic-aarch64' }],
      owns__release: [
        catalogueRelease(911, '16.4.2', { variant: '' }),
        catalogueRelease(912, '17.0.0', { variant: '' }),
      ],
    },
  ],
  device_type: [{ slug: 'raspberrypi4-64', is_of__cpu_architecture: [{ slug: 'aarch64' }] }],
};

export const renderDevice = (device: DeviceDetail, role = 'operator', section = '') => {
  const api = createFakeApi({
    device: [device],
    device_config_variable: [],
    user_application_membership: [fleetMember(role)],
    release: (catalogue.application ?? []).flatMap((app) =>
      Array.isArray(app.owns__release) ? app.owns__release : [],
    ),
    ...catalogue,
  });
  answerDevicePageFeeds(api, device.uuid);
  shapeHostWrites(api);
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route path="/devices/:uuid" element={<DevicePage />} />
        <Route path="/devices/:uuid/actions" element={<DeviceActionsPage />} />
      </Routes>
    </ToastProvider>,
    `/devices/${device.uuid}${section}`,
  );
  return api;
};

export const renderTable = (devices: DeviceListRow[]) => {
  const api = createFakeApi({
    device: devices,
    device_config_variable: [],
    team_application_access: [],
    organization_membership: [],
    user_application_membership: [fleetMember('operator')],
    ...catalogue,
  });
  shapeHostWrites(api);
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route element={<Outlet context={{ fleet: fleetFixture() }} />}>
          <Route path="/fleets/12/devices" element={<FleetDevicesPage />} />
        </Route>
      </Routes>
    </ToastProvider>,
    '/fleets/12/devices',
  );
  return api;
};

// Opens the menu once and waits for the entry to be enabled (the role query settles).
export const openAction = async (name: string): Promise<HTMLElement> => {
  await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
  const item = await waitFor(() => {
    const found = screen.getByRole('menuitem', { name: new RegExp(`^${name}`) });
    expect(found.getAttribute('aria-disabled')).toBeNull();
    return found;
  });
  await userEvent.click(item);
  return await screen.findByRole('dialog');
};

export const deviceWrites = (api: ReturnType<typeof createFakeApi>) =>
  api.writes.filter((write) => write.resource === 'device').map(({ id, body }) => ({ id, body }));
