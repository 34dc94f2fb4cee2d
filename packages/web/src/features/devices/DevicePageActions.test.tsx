// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { renderWithClient } from '../fleets/application/test-helpers.js';
import { DevicePage } from './DevicePage.js';
import type { DeviceDetail } from './device-rows.js';
import { answerDevicePageFeeds } from './device-page-feeds.js';
import { deviceDetail } from './test-fixtures.js';

// The field actions of the device page's Actions menu, on the strict fake API.

afterEach(cleanup);

const renderDevice = (device: DeviceDetail) => {
  const api = createFakeApi({
    device: [device],
    device_config_variable: [],
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
  it('refuses local mode on a production OS with the reason, and allows turning it off', async () => {
    const api = renderDevice(deviceDetail({ os_variant: 'prod' }));
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
      method: 'POST',
      resource: 'device_config_variable',
      body: { device: 101, name: 'RESIN_SUPERVISOR_LOCAL_MODE', value: '0' },
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
