// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { actionSpecs, menuActions } from './device-actions.js';
import { flowActions } from './useDeviceActionFlow.js';
import { DeviceActionsPage } from './DeviceActionsPage.js';
import { DeviceSettingsPage } from './DeviceSettingsPage.js';

// The device's actions and settings pages, on the strict fake API.

afterEach(cleanup);

const uuid = deviceDetail().uuid;

const fleet = (id: number, name: string): FakeRow => ({
  id,
  app_name: name,
  slug: `acme/${name}`,
  organization: { __id: 3 },
  is_of__class: 'fleet',
  is_directly_accessible_by__user: [{ id: 7 }],
  is_for__device_type: [{ slug: 'aarch64-board', is_of__cpu_architecture: [{ slug: 'aarch64' }] }],
});

const Where = () => <p data-testid="where">{useLocation().pathname}</p>;

const renderAt = (section: 'actions' | 'settings', role = 'operator') => {
  const api = createFakeApi({
    device: [deviceDetail()],
    device_config_variable: [],
    team_application_access: [],
    organization_membership: [],
    application: [fleet(12, 'garden-sensors'), fleet(13, 'orchard')],
    user_application_membership: [fleetMember(role), fleetMember('developer', 13, 2)],
    device_type: [{ slug: 'raspberrypi4-64', is_of__cpu_architecture: [{ slug: 'aarch64' }] }],
  });
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route path="/devices/:uuid/actions" element={<DeviceActionsPage />} />
        <Route path="/devices/:uuid/settings" element={<DeviceSettingsPage />} />
        <Route path="/fleets/:fleetId" element={<p>Fleet page</p>} />
      </Routes>
      <Where />
    </ToastProvider>,
    `/devices/${uuid}/${section}`,
  );
  return api;
};

const row = (title: string) => screen.getByRole('region', { name: title });

describe('device actions page', () => {
  it('lists every action with its blurb, a link to the built-in documentation and its button', async () => {
    renderAt('actions');
    await screen.findByRole('tab', { name: 'Actions', selected: true });
    // Every entry of the Actions menu: supervisor actions, field actions, OS and supervisor
    // updates, and delete.
    expect(flowActions).toEqual(menuActions);
    expect(flowActions).toEqual(expect.arrayContaining(['os-update', 'supervisor-update']));
    for (const id of flowActions) {
      const region = await screen.findByRole('region', { name: actionSpecs[id].title });
      expect(within(region).getByText(new RegExp(actionSpecs[id].blurb.slice(0, 30)))).toBeTruthy();
      const docs = within(region).getByRole('link', {
        name: `${actionSpecs[id].title}: documentation`,
      });
      expect(docs.getAttribute('href')).toBe(actionSpecs[id].docs ?? '/docs/devices');
      expect(within(region).getByRole('button', { name: actionSpecs[id].label })).toBeTruthy();
    }
  });

  it('asks before rebooting, with what the action does', async () => {
    renderAt('actions');
    const reboot = await waitFor(() => {
      const button = within(row('Reboot')).getByRole<HTMLButtonElement>('button', {
        name: 'Reboot',
      });
      expect(button.disabled).toBe(false);
      return button;
    });
    await userEvent.click(reboot);
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(new RegExp(actionSpecs.reboot.blurb.slice(0, 30))),
    ).toBeTruthy();
    // The action's documentation, from its dialog too.
    expect(within(dialog).getByRole('link', { name: 'Documentation' }).getAttribute('href')).toBe(
      '/docs/devices',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows an observer why each action is unavailable', async () => {
    renderAt('actions', 'observer');
    await waitFor(() =>
      expect(within(row('Reboot')).getByText(/do not have permission/)).toBeTruthy(),
    );
    const buttons = flowActions.map((id) =>
      within(row(actionSpecs[id].title)).getByRole<HTMLButtonElement>('button', {
        name: actionSpecs[id].label,
      }),
    );
    expect(buttons.every((button) => button.disabled)).toBe(true);
  });
});

describe('device settings page', () => {
  it("shows the device's settings with their current values", async () => {
    renderAt('settings');
    const settings = await screen.findByRole('region', { name: 'Device settings' });
    // The slug may wrap after / or - only (its parts are split there).
    expect(
      within(settings).getByTitle('acme/garden-sensors').closest('a')?.getAttribute('href'),
    ).toBe('/fleets/12');
    expect(within(row('Release')).getByText("Tracks the fleet's release")).toBeTruthy();
    expect(within(row('Public device URL')).getByText('Off')).toBeTruthy();
    expect(within(row('Local mode')).getByText('Off')).toBeTruthy();
    expect(within(row('Support access')).getByText('Off')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Settings', selected: true })).toBeTruthy();
  });

  it('moves the device to another fleet and lands there', async () => {
    const api = renderAt('settings');
    // The moved device, read again, belongs to its new fleet.
    api.shapeUpdated('device', (device, body) => ({
      ...device,
      belongs_to__application: [
        {
          id: body.belongs_to__application,
          app_name: 'orchard',
          slug: 'acme/orchard',
          is_of__class: 'fleet',
          organization: [{ id: 3, name: 'Acme' }],
        },
      ],
    }));
    const move = await waitFor(() => {
      const button = within(row('Fleet')).getByRole<HTMLButtonElement>('button', { name: 'Move' });
      expect(button.disabled).toBe(false);
      return button;
    });
    await userEvent.click(move);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Fleet' }));
    await userEvent.click(await screen.findByRole('option', { name: /orchard/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/fleets/13'));
    expect(
      api.writes
        .filter((write) => write.resource === 'device')
        .map(({ id, body }) => ({ id, body })),
    ).toEqual([{ id: 101, body: { belongs_to__application: 13 } }]);
  });
});
