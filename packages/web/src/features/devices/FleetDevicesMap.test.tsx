// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { FleetDevicesPage } from './FleetDevicesPage.js';
import { deviceRow } from '../../test-support/device-fixtures.js';

afterEach(cleanup);

const located = (id: number, name: string, latitude: string | null, longitude: string | null) => ({
  ...deviceRow({ id, uuid: String(id).repeat(32).slice(0, 32), device_name: name }),
  latitude,
  longitude,
  custom_latitude: null,
  custom_longitude: null,
});

const Where = () => <p data-testid="where">{useLocation().search}</p>;

describe('fleet devices map view', () => {
  it('switches to the map, kept in the URL, with the located devices as markers', async () => {
    const api = createFakeApi({
      device: [
        located(101, 'north-1', '52.37', '4.89'),
        located(102, 'north-2', '52.38', '4.90'),
        located(103, 'nowhere', null, null),
      ],
      user_application_membership: [fleetMember('operator')],
    });
    api.on('GET', '/config', () => ({
      status: 200,
      body: { deviceUrlsBase: 'd.example', mapTiles: { url: '', attribution: '' } },
    }));
    renderWithClient(
      api.client,
      <ToastProvider>
        <Routes>
          <Route
            element={
              <>
                <Outlet context={{ fleet: fleetFixture() }} />
                <Where />
              </>
            }
          >
            <Route path="/fleets/12/devices" element={<FleetDevicesPage />} />
          </Route>
        </Routes>
      </ToastProvider>,
      '/fleets/12/devices',
    );
    await screen.findByRole('table', { name: 'Devices' });
    await userEvent.click(screen.getByRole('button', { name: 'Map' }));
    expect(screen.getByTestId('where').textContent).toBe('?view=map');
    const map = await screen.findByRole('region', { name: 'Fleet map' });
    await waitFor(() =>
      expect(screen.getByText('2 on the map, 1 without a location')).toBeTruthy(),
    );
    expect(map.getAttribute('data-markers')).toBe('2');
    expect(screen.queryByRole('table', { name: 'Devices' })).toBeNull();
  });
});
