// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { DevicePage } from './DevicePage.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { answerDevicePageFeeds } from '../../test-support/device-page-feeds.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';

// The field actions of the device page's Actions menu, on the strict fake API.

afterEach(cleanup);

const renderDevice = (device: DeviceDetail, configVariables: FakeRow[] = []) => {
  const api = createFakeApi({
    device: [device],
    device_config_variable: configVariables,
    user_application_membership: [fleetMember('operator')],
  });
  answerDevicePageFeeds(api, device.uuid);
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deviceUrlsBase: 'devices.example.test' },
  }));
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route path="/devices/:uuid" element={<DevicePage />} />
      </Routes>
    </ToastProvider>,
    `/devices/${device.uuid}`,
  );
  return api;
};

// Opens the menu once: an open menu follows the device and role queries as they settle (a
// second click would land on the menu's backdrop, not on the button).
const openAction = async (name: string): Promise<HTMLElement> => {
  await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
  const item = await waitFor(() => {
    const found = screen.getByRole('menuitem', { name: new RegExp(`^${name}`) });
    expect(found.getAttribute('aria-disabled')).toBeNull();
    return found;
  });
  await userEvent.click(item);
  return await screen.findByRole('dialog');
};

describe('device page field actions', () => {
  it('disables local mode on a production OS and says why in the menu', async () => {
    renderDevice(deviceDetail({ os_variant: 'prod' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    // The open menu follows the role query when it settles.
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Local mode/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('Local mode is only available on development OS variants');
      // The other entries an operator may use stay enabled.
      const pin = screen.getByRole('menuitem', { name: /^Pin to release/ });
      expect(pin.getAttribute('aria-disabled')).toBeNull();
    });
  });

  it('disables local mode for a supervisor older than 4', async () => {
    renderDevice(deviceDetail({ os_variant: 'dev', supervisor_version: '3.2.1' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Local mode/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('Local mode needs supervisor version 4 or later');
    });
  });

  it('lets a device in local mode on a production OS leave it; the dialog says why it cannot enter', async () => {
    const api = renderDevice(
      deviceDetail({
        os_variant: 'prod',
        device_config_variable: [{ name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' }],
      }),
      [{ id: 9, device: { __id: 101 }, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '1' }],
    );
    const dialog = await openAction('Local mode');
    expect(
      within(dialog).getByText('Local mode is only available on development OS variants'),
    ).toBeTruthy();
    const apply = within(dialog).getByRole('button', { name: 'Apply' });
    expect(apply.hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Disable local mode' }));
    expect(apply.hasAttribute('disabled')).toBe(false);
    await userEvent.click(apply);
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({
      method: 'PATCH',
      resource: 'device_config_variable',
      id: 9,
      body: { value: '0' },
    });
  });

  it('shows the public URL when it is on and offers to turn it off', async () => {
    const api = renderDevice(deviceDetail({ is_web_accessible: true }));
    const dialog = await openAction('Public device URL');
    const link = await within(dialog).findByRole('link', {
      name: `http://${deviceDetail().uuid}.devices.example.test/`,
    });
    expect(link.getAttribute('href')).toBe(`http://${deviceDetail().uuid}.devices.example.test/`);
    expect(
      within(dialog).getByRole('radio', { name: 'Disable the public device URL' }),
    ).toHaveProperty('checked', true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({ id: 101, body: { is_web_accessible: false } });
  });

  it('says until when support access runs and revokes it', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const api = renderDevice(deviceDetail({ is_accessible_by_support_until__date: until }));
    const dialog = await openAction('Support access');
    expect(within(dialog).getByRole('status').textContent).toMatch(/^Support access expires on/);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Revoke access' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({
      id: 101,
      body: { is_accessible_by_support_until__date: null },
    });
  });

  it('disables Move device when no fleet takes the device, with the catalogue reason', async () => {
    // The user sees no fleet but the device's own (no application rows to move to).
    renderDevice(deviceDetail());
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Move device/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('No applications with compatible arch');
    });
  });

  it('says a deactivated device is already inactive', async () => {
    renderDevice(deviceDetail({ is_active: false }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions' }));
    await waitFor(() => {
      const item = screen.getByRole('menuitem', { name: /^Deactivate device/ });
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(item.textContent).toContain('Device already inactive');
    });
  });
});
