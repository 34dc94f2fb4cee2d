// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { createFakeApi } from '../../../test-support/fake-api.js';
import { fleetMember, teamAccess } from '../../../test-support/fixtures.js';
import { FleetLayout } from './FleetLayout.js';
import { fleetRow, fleetFixture, renderWithClient } from '../../../test-support/fleet-helpers.js';
import { useFleetContext } from '../../../fleet/useFleetContext.js';
import { useFleetRole } from '../../../fleet/api-fleet-role.js';

afterEach(cleanup);

const Where = () => <p data-testid="where">{useLocation().pathname}</p>;
const Child = ({ name }: { name: string }) => (
  <p>
    {name} of {useFleetContext().fleet.app_name}
  </p>
);
// Says when the user's role on the fleet is known (the layout reads the same query).
const RoleKnown = () =>
  useFleetRole(useFleetContext().fleet.id).isPending ? null : <p>role known</p>;

const routes = (
  <Routes>
    <Route path="/fleets" element={<p>Fleet list</p>} />
    {['/fleets', '/apps', '/blocks'].map((prefix) => (
      <Route key={prefix} path={`${prefix}/:fleetId`} element={<FleetLayout />}>
        <Route
          index
          element={
            <>
              <Child name="summary" />
              <RoleKnown />
            </>
          }
        />
        <Route path="settings" element={<Child name="settings" />} />
      </Route>
    ))}
  </Routes>
);

const renderAt = (path: string, applications: FleetDetail[], role = 'developer') => {
  const { client } = createFakeApi({
    application: applications.map((detail) => fleetRow(detail)),
    user_application_membership: [fleetMember(role)],
  });
  renderWithClient(
    client,
    <>
      {routes}
      <Where />
    </>,
    path,
  );
};

describe('FleetLayout', () => {
  it('shows the application and its child page', async () => {
    renderAt('/fleets/12', [fleetFixture()]);
    expect(await screen.findByText('summary of garden-sensors')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'garden-sensors' })).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Settings' })).toBeTruthy();
  });

  it('rewrites a path whose class prefix is wrong', async () => {
    renderAt('/fleets/12/settings', [fleetFixture({ is_of__class: 'block' })]);
    expect(await screen.findByText('settings of garden-sensors')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/blocks/12/settings');
  });

  it('rejects a non-numeric id', () => {
    renderAt('/apps/abc', [fleetFixture()]);
    expect(screen.getByRole('alert').textContent).toContain('invalid id passed in url');
    expect(screen.getByRole('link', { name: 'Back to apps' })).toBeTruthy();
  });

  it('goes to the fleet list, without an error, when the application is not visible', async () => {
    renderAt('/apps/99/settings', [fleetFixture()]);
    expect(await screen.findByText('Fleet list')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/fleets');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hides Settings from a user who may not change the fleet and has no role of their own', async () => {
    const { client } = createFakeApi({
      application: [fleetRow(fleetFixture())],
      team_application_access: [teamAccess('operator')],
    });
    renderWithClient(client, routes, '/fleets/12');
    expect(await screen.findByText('summary of garden-sensors')).toBeTruthy();
    // API keys (an operator reads them) shows once the role is known.
    await screen.findByRole('tab', { name: 'API keys' });
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
  });

  it('gives fleets their variables, configuration and API keys tabs; API keys need resin.api_key.read', async () => {
    renderAt('/fleets/12', [fleetFixture()]);
    await screen.findByRole('tab', { name: 'Settings' });
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'Summary',
      'Devices',
      'Releases',
      'Variables',
      'Configuration',
      'API keys',
      'Members',
      'Teams',
      'Settings',
    ]);
    expect(screen.getByRole('tab', { name: 'Variables' }).getAttribute('href')).toBe(
      '/fleets/12/envvars',
    );
    cleanup();
    renderAt('/fleets/12', [fleetFixture()], 'observer');
    // An observer may change nothing: no Settings (they leave from Members), no API keys.
    await screen.findByText('role known');
    expect(screen.getByRole('tab', { name: 'Variables' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'API keys' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
    cleanup();
    renderAt('/apps/12', [fleetFixture({ is_of__class: 'app' })]);
    await screen.findByRole('tab', { name: 'Settings' });
    expect(screen.queryByRole('tab', { name: 'Variables' })).toBeNull();
    // Every class has releases.
    expect(screen.getByRole('tab', { name: 'Releases' }).getAttribute('href')).toBe(
      '/apps/12/releases',
    );
    expect(screen.getByRole('tab', { name: 'Members' }).getAttribute('href')).toBe(
      '/apps/12/members',
    );
  });
});
