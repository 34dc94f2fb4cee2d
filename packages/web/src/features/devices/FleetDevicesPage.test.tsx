// @vitest-environment jsdom
import { FlotillaApiError } from '@flotilla/sdk/errors';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Outlet, Route, Routes } from 'react-router';
import { ToastProvider } from '../../ui/toasts.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { FleetDevicesPage } from './FleetDevicesPage.js';
import { deviceRow } from '../../test-support/device-fixtures.js';
import { recordActionRequests } from '../../test-support/device-page-feeds.js';

afterEach(cleanup);

const renderPage = (
  devices: FakeRow[],
  role = 'operator',
  setup: (api: ReturnType<typeof createFakeApi>) => void = () => undefined,
) => {
  const api = createFakeApi({ device: devices, user_application_membership: [fleetMember(role)] });
  setup(api);
  // The supervisor calls, as the console asks the SDK for them.
  const request = recordActionRequests(api);
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
  return { api, request };
};

const devices = [
  deviceRow(),
  deviceRow({
    id: 102,
    uuid: 'b'.repeat(32),
    device_name: 'calm-heron',
    is_connected_to_vpn: false,
  }),
  deviceRow({ id: 103, uuid: 'c'.repeat(32), device_name: 'frozen-fox', is_frozen: true }),
];

describe('FleetDevicesPage', () => {
  it('lists the devices with their columns and the total from the count query', async () => {
    const { api } = renderPage([
      ...devices,
      deviceRow({ id: 104, device_name: 'other-fleet', belongs_to__application: { __id: 13 } }),
    ]);
    const table = await screen.findByRole('table', { name: 'Devices' });
    expect(within(table).getByRole('link', { name: 'brave-otter' }).getAttribute('href')).toBe(
      `/devices/${devices[0]?.uuid ?? ''}`,
    );
    expect(within(table).getAllByText('Raspberry Pi 4 (64bit)')).toHaveLength(3);
    expect(within(table).getAllByText('1.2.0')).toHaveLength(3);
    expect(within(table).getAllByText('site: north')).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Devices (3)' })).toBeTruthy();
    // Paged and sorted on the server, the fleet's devices only.
    const list = api.reads.find((url) => url.pathname === '/v7/device');
    expect(list?.searchParams.get('$top')).toBe('50');
    expect(list?.searchParams.get('$skip')).toBe('0');
    expect(list?.searchParams.get('$orderby')).toBe('device_name asc,id asc');
    expect(list?.searchParams.get('$filter')).toBe('belongs_to__application eq 12');
  });

  // A real device that cannot run the release showed as plain Online.
  it("marks the devices that cannot run the fleet's release, saying why", async () => {
    const profile = {
      manages_containers: true,
      architecture: 'aarch64',
      board: null,
      honoured_config: [],
    };
    renderPage([
      deviceRow({ agent_profile: profile }),
      deviceRow({
        id: 102,
        uuid: 'b'.repeat(32),
        device_name: 'host-only',
        agent_profile: { ...profile, manages_containers: false },
      }),
      deviceRow({
        id: 103,
        uuid: 'c'.repeat(32),
        device_name: 'wrong-cpu',
        agent_profile: { ...profile, architecture: 'amd64' },
      }),
    ]);
    const table = await screen.findByRole('table', { name: 'Devices' });
    const rowOf = (name: string) => {
      const row = within(table).getByRole('link', { name }).closest('tr');
      if (!row) throw new Error(`no row ${name}`);
      return row;
    };
    expect(within(rowOf('brave-otter')).queryByText('Cannot run release')).toBeNull();
    const hostOnly = within(rowOf('host-only')).getByText('Cannot run release');
    expect(hostOnly.closest('[aria-description]')?.getAttribute('aria-description')).toMatch(
      /does not run containers/,
    );
    const wrongCpu = within(rowOf('wrong-cpu')).getByText('Cannot run release');
    expect(wrongCpu.closest('[aria-description]')?.getAttribute('aria-description')).toMatch(
      /CPU \(amd64\) cannot run aarch64 releases/,
    );
    // Still online: the mark is beside the status, not instead of it.
    expect(within(rowOf('host-only')).getByText('Online')).toBeTruthy();
  });

  it('opens the frozen-device dialog instead of the device', async () => {
    renderPage(devices);
    await userEvent.click(await screen.findByRole('link', { name: 'frozen-fox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Frozen device' });
    expect(within(dialog).getByText(/frozen-fox is frozen/)).toBeTruthy();
  });

  it('shows the empty state with the Add device button', async () => {
    renderPage([]);
    expect(await screen.findByText('No devices yet')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add device' }).length).toBeGreaterThan(0);
  });

  it('identifies the selected online device and queues it for the offline one', async () => {
    const { request } = renderPage(devices);
    // The server runs the action at once on the online device and queues it for the other.
    request.mockImplementation(async ({ body }) => {
      const online = JSON.stringify(body).includes('[101]');
      return [
        {
          deviceId: online ? 101 : 102,
          outcome: online ? 'done' : 'queued',
          statusCode: online ? 200 : null,
          message: online ? 'OK' : null,
          queuedActionId: online ? null : 7,
        },
      ];
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select brave-otter' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select calm-heron' }));
    expect(screen.getByText('2 devices selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Identify' }));
    // An offline device in the selection: the confirmation offers the queue.
    const dialog = await screen.findByRole('dialog', { name: /Identify/ });
    expect(within(dialog).getByText(/1 device is offline/)).toBeTruthy();
    const queue = within(dialog).getByRole('checkbox', { name: 'Queue for when it comes online' });
    expect((queue as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Identify' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));
    expect(request).toHaveBeenCalledWith({
      method: 'POST',
      path: '/device-actions/v1/run',
      body: { action: 'blink', deviceIds: [102], params: {}, queue: { expiresInHours: 24 } },
    });
    expect(
      await screen.findByText(
        'Identifying brave-otter. Queued for calm-heron until it comes online',
      ),
    ).toBeTruthy();
  }, 60_000);

  it('shows how many actions wait for a device in the table', async () => {
    renderPage(devices, 'operator', (api) =>
      api.on('GET', '/device-actions/v1/queued', () => ({
        status: 200,
        body: [
          { id: 1, deviceId: 102, action: 'reboot', params: {}, status: 'queued' },
          {
            id: 2,
            deviceId: 102,
            action: 'os-update',
            params: { releaseId: 9, previousReleaseId: 8, version: '6.1.0' },
            status: 'queued',
          },
        ],
      })),
    );
    const row = (await screen.findByRole('link', { name: 'calm-heron' })).closest('tr');
    await waitFor(() => expect(row?.textContent).toContain('2 queued'));
    // The chip's tooltip names what waits.
    expect(
      within(row ?? document.body).getByLabelText(
        'Waiting for the device to come online: Reboot, OS update to balenaOS 6.1.0',
      ),
    ).toBeTruthy();
    // One action a line.
    await userEvent.hover(within(row ?? document.body).getByText('2 queued'));
    const tooltip = await screen.findByRole('tooltip');
    expect([...tooltip.querySelectorAll('span')].map((line) => line.textContent)).toEqual([
      'Reboot',
      'OS update to balenaOS 6.1.0',
    ]);
    const other = screen.getByRole('link', { name: 'brave-otter' }).closest('tr');
    expect(other?.textContent).not.toContain('queued');
  });

  it('offers force after an update lock refused a reboot', async () => {
    const { request } = renderPage(devices);
    request.mockRejectedValueOnce(
      new FlotillaApiError({
        status: 423,
        body: 'locked',
        message: 'locked',
        method: 'POST',
        path: '/supervisor/v1/reboot',
        token: 'a-session-token',
      }),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select brave-otter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Reboot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reboot' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reboot' }));
    const notice = await screen.findByText(/update lock is set/);
    expect(notice).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Force reboot' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));
    expect(request).toHaveBeenLastCalledWith({
      method: 'POST',
      path: '/supervisor/v1/reboot',
      body: { deviceId: 101, data: { force: true } },
    });
  });

  it('disables the batch actions of an observer with the reason', async () => {
    renderPage(devices, 'observer');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select brave-otter' }));
    // The open menu follows the role query when it settles.
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const reboot = screen.getByRole('menuitem', { name: /Reboot/ });
      expect(reboot.getAttribute('aria-disabled')).toBe('true');
      expect(reboot.textContent).toMatch(/do not have permission/);
    });
  });
});
