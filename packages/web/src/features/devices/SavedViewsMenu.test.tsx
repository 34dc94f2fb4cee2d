// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { deviceRow } from '../../test-support/device-fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { readSavedViews, saveView } from '../../ui/saved-views.js';
import { FleetDevicesPage } from './FleetDevicesPage.js';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

// The query string the page is at.
const LocationSpy = () => <output aria-label="Location">{useLocation().search}</output>;
const search = () => screen.getByLabelText('Location').textContent ?? '';

const renderPage = (path: string) => {
  const api = createFakeApi({
    device: [deviceRow()],
    user_application_membership: [fleetMember('operator')],
  });
  renderWithClient(
    api.client,
    <ToastProvider>
      <LocationSpy />
      <Routes>
        <Route element={<Outlet context={{ fleet: fleetFixture() }} />}>
          <Route path="/fleets/12/devices" element={<FleetDevicesPage />} />
        </Route>
      </Routes>
    </ToastProvider>,
    path,
  );
};

describe('saved views of the devices table', { timeout: 20_000 }, () => {
  it('saves the filters, sort and tag columns under a name, and restores them', async () => {
    renderPage(
      '/fleets/12/devices?status=updating&tagcols=site&sort=overall_status&dir=desc&page=3',
    );
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Views' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    expect(screen.getByRole('menuitem', { name: 'No saved views' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Save current view…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save current view' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name the view')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('View name'), ' Updating first ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readSavedViews('fleet-devices')).toEqual([
      {
        name: 'Updating first',
        state: {
          search: '',
          status: 'updating',
          tag: '',
          tagcols: 'site',
          sort: 'overall_status',
          dir: 'desc',
          size: 50,
        },
      },
    ]);
    cleanup();

    renderPage('/fleets/12/devices?search=otter');
    await screen.findByRole('button', { name: 'Views' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    await user.click(screen.getByRole('menuitem', { name: /Updating first/ }));
    await waitFor(() =>
      expect(new URLSearchParams(search()).toString()).toBe(
        'status=updating&tagcols=site&sort=overall_status&dir=desc',
      ),
    );
  });

  it('deletes a view, and reads a damaged store as no views', async () => {
    window.localStorage.setItem('flotilla.savedViews.fleet-devices', '{not json');
    expect(readSavedViews('fleet-devices')).toEqual([]);
    saveView('fleet-devices', { name: 'Mine', state: { status: 'online' } });
    saveView('fleet-devices', { name: 'Mine', state: { status: 'updating' } });
    expect(readSavedViews('fleet-devices')).toEqual([
      { name: 'Mine', state: { status: 'updating' } },
    ]);
    renderPage('/fleets/12/devices');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Views' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Views' }));
    await user.click(screen.getByRole('button', { name: 'Delete view Mine' }));
    expect(readSavedViews('fleet-devices')).toEqual([]);
    expect(await screen.findByRole('menuitem', { name: 'No saved views' })).toBeTruthy();
    // Deleting applied nothing.
    expect(search()).toBe('');
  });
});
