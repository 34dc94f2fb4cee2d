// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { DeviceLocationPage } from './DeviceLocationPage.js';

afterEach(cleanup);

const renderLocation = (device: DeviceDetail, role = 'operator', tileUrl = '') => {
  const api = createFakeApi({
    device: [device],
    user_application_membership: [fleetMember(role)],
  });
  // No tile server: the map shows the marker on a blank background.
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deviceUrlsBase: 'd.example', mapTiles: { url: tileUrl, attribution: '' } },
  }));
  renderWithClient(
    api.client,
    <Routes>
      <Route path="/devices/:uuid/location" element={<DeviceLocationPage />} />
    </Routes>,
    `/devices/${device.uuid}/location`,
  );
  return api;
};

const marker = (): Element | null =>
  screen.getByRole('region', { name: 'Map' }).querySelector('path.leaflet-interactive');

describe('DeviceLocationPage', () => {
  it('says why the map is blank: no tile server, or tiles that do not load', async () => {
    renderLocation(deviceDetail());
    expect(await screen.findByText(/No map tiles are configured on this server/)).toBeTruthy();
    cleanup();
    renderLocation(deviceDetail(), 'operator', 'https://tiles.example.net/{z}/{x}/{y}.png');
    const region = await screen.findByRole('region', { name: 'Map' });
    const tile = await waitFor(() => {
      const found = region.querySelector('img.leaflet-tile');
      expect(found).not.toBeNull();
      return found;
    });
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    if (tile) fireEvent.error(tile);
    expect(
      await screen.findByText(
        'The map tiles could not be loaded from tiles.example.net: devices are placed on a blank map.',
      ),
    ).toBeTruthy();
  });

  it('shows the geo-determined location and saves a manual one after checking it', async () => {
    const api = renderLocation(deviceDetail());
    expect(
      await screen.findByLabelText(/Geo-determined location \(52\.37, 4\.89\)/),
    ).toHaveProperty('checked', true);
    await waitFor(() => expect(marker()).not.toBeNull());
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    await waitFor(async () => {
      await userEvent.click(screen.getByLabelText('Manual location'));
      expect(screen.getByLabelText('Manual location')).toHaveProperty('checked', true);
    });
    expect(screen.getByText('Both latitude and longitude are required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Latitude'), '91');
    expect(screen.getByText('The latitude must be between -90 and 90')).toBeTruthy();
    expect(save.hasAttribute('disabled')).toBe(true);
    await userEvent.clear(screen.getByLabelText('Latitude'));
    await userEvent.type(screen.getByLabelText('Latitude'), '52.52');
    await userEvent.type(screen.getByLabelText('Longitude'), '13.405');
    expect(save.hasAttribute('disabled')).toBe(false);
    await userEvent.click(save);
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({
      method: 'PATCH',
      resource: 'device',
      id: 101,
      body: { custom_latitude: '52.52', custom_longitude: '13.405' },
    });
  });

  it('goes back to the geo-determined location by unsetting the manual one', async () => {
    const api = renderLocation(deviceDetail({ custom_latitude: '10', custom_longitude: '20' }));
    await waitFor(async () => {
      expect(await screen.findByLabelText('Manual location')).toHaveProperty('checked', true);
      await userEvent.click(screen.getByLabelText(/Geo-determined location/));
      expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]?.body).toEqual({ custom_latitude: null, custom_longitude: null });
  });

  it('leaves an observer a read-only view that says why', async () => {
    renderLocation(deviceDetail(), 'observer');
    await waitFor(() =>
      expect(screen.getByLabelText('Manual location')).toHaveProperty('disabled', true),
    );
    expect(screen.getByText(/permission/)).toBeTruthy();
  });
});
