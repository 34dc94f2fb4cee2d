// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { DevicePage } from './DevicePage.js';
import { ToastProvider } from '../../ui/toasts.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import {
  answerDevicePageFeeds,
  recordActionRequests,
} from '../../test-support/device-page-feeds.js';
import { deviceDetail, install } from '../../test-support/device-fixtures.js';

afterEach(cleanup);

const renderDevice = (
  devices: DeviceDetail[],
  roleName = 'operator',
  setup: (api: ReturnType<typeof createFakeApi>) => void = () => undefined,
) => {
  const api = createFakeApi({
    device: devices,
    user_application_membership: [fleetMember(roleName)],
  });
  setup(api);
  // The supervisor calls, as the console asks the SDK for them.
  const request = recordActionRequests(api);
  // The logs panel's stream and the metric history (LogsPanel and MetricHistoryCharts tests).
  for (const device of devices) answerDevicePageFeeds(api, device.uuid);
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route path="/" element={<p>Home</p>} />
        <Route path="/fleets/12" element={<p>Fleet page</p>} />
        <Route path="/devices/:uuid" element={<DevicePage />} />
      </Routes>
    </ToastProvider>,
    `/devices/${devices[0]?.uuid ?? 'missing'}`,
  );
  return { api, request };
};

// The role query settles after the device: wait until the permission-gated controls are ready.
const ready = () =>
  waitFor(() =>
    expect(
      (screen.getByRole('button', { name: 'Rename device' }) as HTMLButtonElement).disabled,
    ).toBe(false),
  );

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('DevicePage', () => {
  it('goes home from an unknown device, saying it was not found', async () => {
    renderDevice([]);
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(await screen.findByText('Device not found: missing')).toBeTruthy();
  });

  it("says so when the device cannot run its fleet's release, and not otherwise", async () => {
    renderDevice([
      deviceDetail({
        agent_profile: {
          manages_containers: false,
          architecture: 'aarch64',
          board: 'Raspberry Pi 4 Model B Rev 1.4',
          honoured_config: [],
        },
      }),
    ]);
    const alert = await screen.findByRole('status', { name: 'Cannot run the release' });
    expect(alert.textContent).toMatch(/does not run containers: it cannot run the fleet's release/);
    const summary = screen.getByRole('region', { name: 'Device summary' });
    expect(within(summary).getByText('Cannot run release')).toBeTruthy();
    cleanup();
    renderDevice([deviceDetail()]);
    await screen.findByRole('region', { name: 'Device summary' });
    expect(screen.queryByText('Cannot run release')).toBeNull();
  });

  it('shows the summary card fields', async () => {
    renderDevice([deviceDetail()]);
    expect(await screen.findByRole('heading', { name: 'brave-otter', level: 1 })).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Device summary' });
    for (const text of [
      'Connected',
      'Online',
      'Raspberry Pi 4 (64bit)',
      'balenaOS 5.3.1',
      '16.4.2',
      '203.0.113.7',
      'dc:a6:32:00:00:01',
      'Amsterdam (52.37, 4.89)',
      'site: north',
      'Off',
    ]) {
      expect(within(summary).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(within(summary).getByRole('button', { name: 'Copy UUID' })).toBeTruthy();
    // Online: since when it is connected, never "last connected … ago".
    expect(within(summary).getByText('Connected since')).toBeTruthy();
    expect(within(summary).getByText(/^Online for \d+ \w+$/)).toBeTruthy();
    expect(within(summary).queryByText('Last connected')).toBeNull();
    // Current and target release link to the release page.
    expect(
      within(summary)
        .getAllByRole('link', { name: '1.2.0' })
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/fleets/12/releases/5', '/fleets/12/releases/5']);
  });

  it('says when an offline device was last connected', async () => {
    renderDevice([deviceDetail({ is_online: false, api_heartbeat_state: 'offline' })]);
    const summary = await screen.findByRole('region', { name: 'Device summary' });
    const label = within(summary).getByText('Last connected');
    expect(label.nextElementSibling?.textContent).toMatch(/ ago$/);
    expect(within(summary).queryByText('Connected since')).toBeNull();
    expect(within(summary).queryByText(/^Online for/)).toBeNull();
  });

  it('applies the container button rules', async () => {
    renderDevice([deviceDetail()]);
    await ready();
    await waitFor(() => expect(button('Stop main').disabled).toBe(false));
    expect(button('Start main').disabled).toBe(true);
    expect(button('Restart main').disabled).toBe(false);
    expect(button('Start worker').disabled).toBe(false);
    expect(button('Stop worker').disabled).toBe(true);
    expect(button('Restart worker').disabled).toBe(true);
    expect(screen.getByText('Downloading (42%)')).toBeTruthy();
  });

  it('shows a service whose health check fails as Unhealthy, and says what that means', async () => {
    renderDevice([deviceDetail({ image_install: [install(1, 'main', 'Unhealthy', null)] })]);
    await ready();
    const chip = await screen.findByText('Unhealthy');
    await userEvent.hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveProperty(
      'textContent',
      "The service runs, but its health check fails: see the service's logs",
    );
    await waitFor(() => expect(button('Stop main').disabled).toBe(false));
    expect(button('Start main').disabled).toBe(true);
  });

  it("opens the logs filtered to a service from its row's show logs", async () => {
    Object.assign(Element.prototype, { scrollIntoView: vi.fn() });
    renderDevice([deviceDetail()]);
    await ready();
    const filter = screen.getByRole('textbox', { name: 'Filter by service' }) as HTMLInputElement;
    expect(filter.value).toBe('');
    await userEvent.click(button('Show logs of worker'));
    expect(filter.value).toBe('worker');
  });

  it('sends a container action with the image id and disables the buttons meanwhile', async () => {
    const { request } = renderDevice([deviceDetail()]);
    await ready();
    let finish: (value: string) => void = () => undefined;
    request.mockImplementationOnce(
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    await userEvent.click(button('Restart main'));
    expect(request).toHaveBeenCalledWith({
      method: 'POST',
      path: '/supervisor/v2/applications/12/restart-service',
      body: { deviceId: 101, appId: 12, data: { appId: 12, imageId: 101 } },
    });
    await waitFor(() => expect(button('Start worker').disabled).toBe(true));
    finish('OK');
    await waitFor(() => expect(button('Start worker').disabled).toBe(false));
  });

  it('queues a reboot for an offline device for the chosen time', async () => {
    const { request } = renderDevice([
      deviceDetail({ is_connected_to_vpn: false, api_heartbeat_state: 'offline' }),
    ]);
    request.mockImplementation(async (options) =>
      options.path === '/device-actions/v1/run'
        ? [{ deviceId: 101, outcome: 'queued', statusCode: null, message: null, queuedActionId: 5 }]
        : 'OK',
    );
    await ready();
    await userEvent.click(button('Actions'));
    const reboot = await screen.findByRole('menuitem', { name: /Reboot/ });
    expect(reboot.getAttribute('aria-disabled')).toBeNull();
    await userEvent.click(reboot);
    const dialog = await screen.findByRole('dialog', { name: 'Reboot' });
    expect(within(dialog).getByText(/1 device is offline/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Expires after' }));
    await userEvent.click(await screen.findByRole('option', { name: '6 hours' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reboot' }));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith({
        method: 'POST',
        path: '/device-actions/v1/run',
        body: {
          action: 'reboot',
          deviceIds: [101],
          params: { force: false },
          queue: { expiresInHours: 6 },
        },
      }),
    );
    expect(await screen.findByText('Queued for brave-otter until it comes online')).toBeTruthy();
  });

  it("queues a service's restart for an offline device after asking how long it may wait", async () => {
    const { request } = renderDevice([
      deviceDetail({ is_connected_to_vpn: false, api_heartbeat_state: 'offline' }),
    ]);
    request.mockImplementation(async (options) =>
      options.path === '/device-actions/v1/run'
        ? [{ deviceId: 101, outcome: 'queued', statusCode: null, message: null, queuedActionId: 6 }]
        : 'OK',
    );
    await ready();
    await userEvent.click(button('Restart main'));
    const dialog = await screen.findByRole('dialog', { name: 'Restart main' });
    expect(within(dialog).getByText(/The device is offline/)).toBeTruthy();
    expect(request).not.toHaveBeenCalledWith(expect.objectContaining({ method: 'POST' }));
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Expires after' }));
    await userEvent.click(await screen.findByRole('option', { name: '3 days' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Queue' }));
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith({
        method: 'POST',
        path: '/device-actions/v1/run',
        body: {
          action: 'restart-service',
          deviceIds: [101],
          params: { imageId: 101 },
          queue: { expiresInHours: 72 },
        },
      }),
    );
    expect(await screen.findByText('Queued: restart main')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists the queued actions with their outcomes and cancels one', async () => {
    const queued = (id: number, status: string, message: string | null) => ({
      id,
      deviceId: 101,
      action: id === 1 ? 'blink' : id === 3 ? 'os-update' : 'reboot',
      params: id === 3 ? { releaseId: 9, previousReleaseId: 8, version: '6.1.0' } : {},
      status,
      createdAt: '2033-03-01T10:00:00.000Z',
      expiresAt: '2033-03-02T10:00:00.000Z',
      finishedAt: status === 'queued' ? null : '2033-03-01T11:00:00.000Z',
      resultStatus: status === 'done' ? 200 : null,
      message,
    });
    const cancels: string[] = [];
    renderDevice(
      [deviceDetail({ is_connected_to_vpn: false, api_heartbeat_state: 'offline' })],
      'operator',
      (api) => {
        api.on('GET', '/device-actions/v1/queued', () => ({
          status: 200,
          body: [queued(3, 'queued', null), queued(2, 'queued', null), queued(1, 'done', 'OK')],
        }));
        api.on('POST', '/device-actions/v1/queued/2/cancel', () => {
          cancels.push('2');
          return { status: 200, body: queued(2, 'cancelled', 'Cancelled') };
        });
      },
    );
    const card = await screen.findByRole('region', { name: 'Queued actions' });
    const rows = within(card).getAllByRole('row');
    // An OS update names the version it moves the device to.
    expect(rows[1]?.textContent).toContain('OS update to balenaOS 6.1.0');
    expect(rows[2]?.textContent).toContain('Reboot');
    expect(rows[2]?.textContent).toContain('Queued');
    expect(rows[3]?.textContent).toContain('Identify');
    expect(rows[3]?.textContent).toContain('Done');
    await ready();
    await userEvent.click(within(rows[2] ?? card).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(cancels).toEqual(['2']));
  });

  it('gives an observer no rename, notes or actions', async () => {
    renderDevice([deviceDetail()], 'observer');
    await screen.findByRole('heading', { name: 'brave-otter', level: 1 });
    await waitFor(() =>
      expect(screen.getAllByLabelText(/do not have permission/).length).toBeGreaterThan(0),
    );
    expect(button('Rename device').disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Notes' }) as HTMLTextAreaElement).disabled).toBe(
      true,
    );
    // Clearing logs is resin.device_log.delete: developers and up, not operators or observers.
    expect(button('Clear logs').disabled).toBe(true);
    // Diagnostics need resin.device.access_diagnostics: the tab is not offered.
    expect(screen.queryByRole('tab', { name: 'Diagnostics' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Actions' }).getAttribute('href')).toBe(
      `/devices/${deviceDetail().uuid}/actions`,
    );
  });

  it('opens the move form from the button beside the fleet; an observer may not move', async () => {
    renderDevice([deviceDetail()], 'operator');
    const summary = await screen.findByRole('region', { name: 'Device summary' });
    // The button is re-rendered once the role is known (its tooltip wrapper goes).
    const move = await waitFor(() => {
      const found = within(summary).getByRole<HTMLButtonElement>('button', {
        name: 'Move device to another fleet',
      });
      expect(found.disabled).toBe(false);
      return found;
    });
    await userEvent.click(move);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Move device' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Fleet' })).toBeTruthy();
    cleanup();
    renderDevice([deviceDetail()], 'observer');
    await waitFor(() =>
      expect(screen.getAllByLabelText(/do not have permission/).length).toBeGreaterThan(0),
    );
    expect(button('Move device to another fleet').disabled).toBe(true);
  });

  it('offers the Diagnostics tab to an operator', async () => {
    renderDevice([deviceDetail()], 'operator');
    const tab = await screen.findByRole('tab', { name: 'Diagnostics' });
    expect(tab.getAttribute('href')).toBe(`/devices/${deviceDetail().uuid}/diagnostics`);
  });

  it('lets a developer clear logs but not an operator', async () => {
    renderDevice([deviceDetail()], 'developer');
    await ready();
    await waitFor(() => expect(button('Clear logs').disabled).toBe(false));
    cleanup();
    renderDevice([deviceDetail()], 'operator');
    await ready();
    expect(button('Clear logs').disabled).toBe(true);
  });

  it('renames the device in place', async () => {
    const { api } = renderDevice([deviceDetail()]);
    await ready();
    await userEvent.click(button('Rename device'));
    const field = screen.getByRole('textbox', { name: 'Device name' });
    await userEvent.clear(field);
    expect(screen.getByText('The device name cannot be empty')).toBeTruthy();
    // Pasted in one input event: per-key typing re-renders the page per character.
    await userEvent.paste('quiet-lynx');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(api.writes).toEqual([
        { method: 'PATCH', resource: 'device', id: 101, body: { device_name: 'quiet-lynx' } },
      ]),
    );
  });

  it('redirects to / when the device does not exist', async () => {
    renderDevice([]);
    expect(await screen.findByText('Home')).toBeTruthy();
  });

  it('redirects a frozen device to its fleet', async () => {
    renderDevice([deviceDetail({ is_frozen: true })]);
    expect(await screen.findByText('Fleet page')).toBeTruthy();
  });
});
