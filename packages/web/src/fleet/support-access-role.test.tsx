// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { holdsMembershipRole } from '@flotilla/shared/permissions/fleet-access';
import { SupportAccessNotice } from '../api/session/SupportAccessNotice.js';
import { createFakeApi } from '../test-support/fake-api.js';
import type { FakeRow } from '../test-support/fake-odata.js';
import { organizationMember } from '../test-support/fixtures.js';
import { fleetFixture, fleetRow, renderWithClient } from '../test-support/fleet-helpers.js';
import { useFleetRole } from './api-fleet-role.js';

afterEach(cleanup);

const day = 24 * 60 * 60 * 1000;

// What a support agent (or a platform administrator) holds on fleet 12 and the notice they see.
const Probe = () => {
  const access = useFleetRole(12);
  if (access.isPending) return <p>Checking</p>;
  return (
    <>
      <p>{`roles: ${access.roles.join(',') || 'none'}`}</p>
      <p>{`may read: ${access.can('application', 'read') ? 'yes' : 'no'}`}</p>
      <SupportAccessNotice
        until={[access.supportUntil]}
        subject="fleet"
        member={holdsMembershipRole(access.roles)}
      />
    </>
  );
};

const renderFor = (
  permissions: string[],
  until: string | null,
  organizationMemberships: FakeRow[] = [],
) => {
  const api = createFakeApi(
    {
      user_application_membership: [],
      team_application_access: [],
      organization_membership: organizationMemberships,
      application: [fleetRow(fleetFixture({ is_accessible_by_support_until__date: until }))],
    },
    { permissions },
  );
  renderWithClient(api.client, <Probe />);
};

describe('support agents on a fleet', () => {
  it('get nothing, and see "no access", while the fleet grants no support access', async () => {
    renderFor(['support.home'], null);
    expect(await screen.findByText('roles: none')).toBeTruthy();
    expect(screen.getByText('may read: no')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('No support access');
  });

  it('get nothing once the grant has expired', async () => {
    renderFor(['support.home'], new Date(Date.now() - day).toISOString());
    expect(await screen.findByText('roles: none')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('No support access');
  });

  it('read the fleet, and see until when, while the grant lasts', async () => {
    const until = new Date(Date.now() + day);
    renderFor(['support.home'], until.toISOString());
    expect(await screen.findByText('roles: support_agent')).toBeTruthy();
    expect(screen.getByText('may read: yes')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      `Support access until ${until.toLocaleString()}.`,
    );
  });

  it('show the notice to platform administrators too, and to nobody else', async () => {
    renderFor(['admin.home'], null);
    expect(await screen.findByText('roles: balena_admin')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('No support access');
    cleanup();
    renderFor([], null);
    expect(await screen.findByText('roles: none')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is not shown to platform administrators in their own organization', async () => {
    renderFor(['admin.home'], null, [organizationMember('administrator')]);
    expect(await screen.findByText('roles: balena_admin,administrator')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
