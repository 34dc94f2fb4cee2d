// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../test-support/fake-api.js';
import { fleetMember } from '../test-support/fixtures.js';
import { renderWithClient } from '../test-support/fleet-helpers.js';
import { RequireFleetPermission } from './RequireFleetPermission.js';

afterEach(cleanup);

const renderGuarded = (role: string, refuseFirstRead = false) => {
  const api = createFakeApi({ user_application_membership: [fleetMember(role)] });
  if (refuseFirstRead) api.refuseNextRead('user_application_membership', 'Database unavailable');
  renderWithClient(
    api.client,
    <Routes>
      <Route path="/" element={<p>Home</p>} />
      <Route
        path="/guarded"
        element={
          <RequireFleetPermission fleetId={12} needs={{ resource: 'release', action: 'update' }}>
            <p>Guarded page</p>
          </RequireFleetPermission>
        }
      />
    </Routes>,
    '/guarded',
  );
};

describe('RequireFleetPermission', () => {
  it('shows the page to a user with the permission, after a placeholder', async () => {
    renderGuarded('developer');
    expect(screen.getByLabelText('Checking your permissions')).toBeTruthy();
    expect(await screen.findByText('Guarded page')).toBeTruthy();
  });

  it('sends a user without the permission home', async () => {
    renderGuarded('observer');
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(screen.queryByText('Guarded page')).toBeNull();
  });

  it('says when the permissions could not be read, and reads them again on retry', async () => {
    renderGuarded('developer', true);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Database unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Guarded page')).toBeTruthy();
  });
});
