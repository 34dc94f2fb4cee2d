// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetFixture, fleetRow, renderWithClient } from '../../test-support/fleet-helpers.js';
import { FleetsPage } from './FleetsPage.js';

afterEach(cleanup);

const Location = () => <output aria-label="location">{useLocation().search}</output>;

// Two fleets: one pinned to release 1.2.0 with an online and an offline device, one without
// releases or devices.
const renderPage = (path: string, options: { failing?: boolean; empty?: boolean } = {}) => {
  const pinned = fleetRow(
    fleetFixture({
      id: 12,
      app_name: 'garden-sensors',
      should_track_latest_release: false,
      should_be_running__release: [
        {
          id: 40,
          commit: 'abcdef123456',
          raw_version: '1.2.0',
          status: 'success',
          created_at: '2024-05-02T10:00:00.000Z',
        },
      ],
    }),
    {
      owns__device: [
        { id: 1, overall_status: 'operational' },
        { id: 2, overall_status: 'disconnected' },
      ],
    },
  );
  const bare = fleetRow(fleetFixture({ id: 13, app_name: 'kitchen-displays' }));
  const api = createFakeApi({ application: options.empty ? [] : [pinned, bare] });
  if (options.failing)
    api.refuseNextRead('application', 'The database is not reachable', {
      matches: (url) => url.searchParams.get('$select')?.includes('app_name') === true,
    });
  renderWithClient(
    api.client,
    <Routes>
      <Route
        path="/fleets"
        element={
          <>
            <FleetsPage />
            <Location />
          </>
        }
      />
    </Routes>,
    path,
  );
};

describe('the fleet list', { timeout: 20_000 }, () => {
  it('shows the fleets as table rows with ?view=table', async () => {
    renderPage('/fleets?view=table');
    const table = await screen.findByRole('table', { name: 'Fleets' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Name',
      'Organization',
      'Default device type',
      'Devices',
      'Status',
      'Release',
    ]);
    const [, first, second] = within(table).getAllByRole('row');
    if (!first || !second) throw new Error('two rows expected');
    expect(within(first).getByRole('link', { name: 'garden-sensors' }).getAttribute('href')).toBe(
      '/fleets/12',
    );
    expect(within(first).getByRole('link', { name: '1.2.0' }).getAttribute('href')).toBe(
      '/fleets/12/releases/40',
    );
    expect(within(first).getByLabelText('Pinned')).toBeTruthy();
    await waitFor(() => expect(within(first).getByText('1 Online')).toBeTruthy());
    expect(within(first).getByText('1 Offline')).toBeTruthy();
    expect(within(second).getByText('No release')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('switches between cards and table, keeping the choice in the URL', async () => {
    const user = userEvent.setup();
    renderPage('/fleets');
    await screen.findByRole('link', { name: /garden-sensors/ });
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Table' }));
    expect(screen.getByRole('table', { name: 'Fleets' })).toBeTruthy();
    expect(screen.getByLabelText('location').textContent).toBe('?view=table');
    await user.click(screen.getByRole('button', { name: 'Cards' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByLabelText('location').textContent).toBe('');
  });

  it('selects rows of the table for batch actions', async () => {
    const user = userEvent.setup();
    renderPage('/fleets?view=table');
    await screen.findByRole('table', { name: 'Fleets' });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select kitchen-displays' }));
    expect(
      (screen.getByRole('checkbox', { name: 'Select kitchen-displays' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(
      (screen.getByRole('checkbox', { name: 'Select garden-sensors' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('loads, fails and stays empty in the table view as in the cards', async () => {
    renderPage('/fleets?view=table', { failing: true });
    expect(screen.getByLabelText('Loading fleets').getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText(/The database is not reachable/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    cleanup();
    renderPage('/fleets?view=table', { empty: true });
    expect(await screen.findByText('No fleets yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
